package main

import (
	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/config/fieldpath"
)

// whyTypeDefault prints where a value an agent takes from its agent type
// (model, tools, skills, behaviors) comes from; false when the type gives
// nothing there.
func whyTypeDefault(g *globals, prog *compiler.Program, a *compiler.Agent, path []string, dotted, format string) (bool, error) {
	pos, own, ok := prog.TypeDefault(a, path...)
	if !ok {
		return false, nil
	}
	if format == "json" {
		out := map[string]any{"agent": a.ID, "path": dotted, "type": a.Decl.Type, "type_pos": pos}
		if own {
			out["pos"] = prog.Locate(append([]string{"agents", a.ID}, path...)...)
		}
		return true, writeJSON(g.stdout, out)
	}
	full := fieldpath.Path{"agents", a.ID}.Child(path...)
	if own {
		textf(g.stdout, "%s is declared at %s, merged with agent type %s's at %s\n", full, prog.Locate(full...), a.Decl.Type, pos)
		return true, nil
	}
	textf(g.stdout, "%s comes from agent type %s, declared at %s\n", full, a.Decl.Type, pos)
	return true, nil
}
