package main

import (
	"encoding/json"

	"github.com/charter-dev/charter/compiler"
)

// whyTypeDefault prints the value an agent takes from its agent type
// (model, tools, skills, behaviors) and where it comes from; false when
// the type gives nothing there.
func whyTypeDefault(g *globals, prog *compiler.Program, a *compiler.Agent, path []string, dotted, format string) (bool, error) {
	pos, own, ok := prog.TypeDefault(a, path...)
	if !ok {
		return false, nil
	}
	value, err := agentValue(prog, a, path)
	if err != nil {
		return true, err
	}
	if format == "json" {
		out := map[string]any{"agent": a.ID, "path": dotted, "value": value, "type": a.Decl.Type, "type_pos": pos}
		if own {
			out["pos"] = prog.Locate(append([]string{"agents", a.ID}, path...)...)
		}
		return true, writeJSON(g.stdout, out)
	}
	b, err := json.Marshal(value)
	if err != nil {
		return true, err
	}
	textf(g.stdout, "%s: %s = %s\n", a.ID, dotted, string(b))
	if own {
		textf(g.stdout, "  declared at %s, merged with agent type %s's at %s\n", prog.Locate(append([]string{"agents", a.ID}, path...)...), a.Decl.Type, pos)
		return true, nil
	}
	textf(g.stdout, "  from agent type %s, declared at %s\n", a.Decl.Type, pos)
	return true, nil
}
