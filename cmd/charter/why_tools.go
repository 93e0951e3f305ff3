package main

import (
	"fmt"
	"slices"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/model"
	"github.com/charter-dev/charter/validate"
)

// whyTool says whether agent a may call tool, and which declaration
// decided it.
func whyTool(g *globals, prog *compiler.Program, a *compiler.Agent, tool, format string) error {
	var provided *compiler.ProvidedTool
	for i := range a.Tools {
		if a.Tools[i].Name == tool {
			provided = &a.Tools[i]
		}
	}
	if provided == nil {
		names := make([]string, len(a.Tools))
		for i, t := range a.Tools {
			names[i] = t.Name
		}
		slices.Sort(names)
		hint := ""
		if c, ok := validate.Closest(tool, names); ok {
			hint = fmt.Sprintf("did you mean %q?", c)
		}
		return &exitErr{code: exitError, err: fmt.Errorf("agent %s has no tool %q: none of its behaviors provides it; its tools: %s", a.ID, tool, model.NameList(names)), hint: hint}
	}
	ex, excluded := a.ExclusionOf(tool)
	from := prog.Locate("behaviorTypes", provided.Behavior, "tools", tool)
	var names []string
	if rt, ok := prog.Config.Runtimes["claude-code"]; ok {
		names = rt.RuntimeNames(tool)
	}
	if format == "json" {
		out := map[string]any{"agent": a.ID, "tool": tool, "callable": !excluded, "behavior": provided.Behavior, "provided_at": from, "claude_code_names": names}
		if excluded {
			out["by"], out["reason"], out["pos"] = ex.By, ex.Reason, ex.Pos
		}
		return writeJSON(g.stdout, out)
	}
	if excluded {
		fmt.Fprintf(g.stdout, "%s: tools.%s: may not call it\n", a.ID, tool)
		fmt.Fprintf(g.stdout, "  removed by %s: %s\n", ex.Declaration(), ex.Reason)
	} else {
		fmt.Fprintf(g.stdout, "%s: tools.%s: may call it\n", a.ID, tool)
		if a.Decl.Tools.Allowed != nil {
			fmt.Fprintf(g.stdout, "  admitted by tools.allowed at %s\n", a.ToolsDeclaredAt["tools.allowed"])
		}
	}
	fmt.Fprintf(g.stdout, "  provided by behavior %s (%s)\n", provided.Behavior, from)
	if level := a.Decl.Tools.AccessLevel; level != "" {
		fmt.Fprintf(g.stdout, "  access level %s (%s)\n", level, a.ToolsDeclaredAt["tools.access_level"])
	}
	fmt.Fprintf(g.stdout, "  Claude Code names: %s\n", model.NameList(names))
	return nil
}
