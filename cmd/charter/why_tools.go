package main

import (
	"errors"
	"fmt"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/config/validate"
)

// whyTool prints whether agent a may call tool, and which declaration
// decided it.
func whyTool(g *globals, prog *compiler.Program, a *compiler.Agent, tool, format string) error {
	ans, err := prog.WhyTool(a, tool)
	var nt *compiler.NoToolError
	if errors.As(err, &nt) {
		hint := ""
		if c, ok := validate.Closest(tool, nt.Tools); ok {
			hint = fmt.Sprintf("did you mean %q?", c)
		}
		return &exitErr{code: exitError, err: err, hint: hint}
	}
	if err != nil {
		return err
	}
	ex := ans.Exclusion
	if format == "json" {
		out := map[string]any{"agent": a.ID, "tool": tool, "callable": ans.Callable, "behavior": ans.Behavior, "provided_at": ans.ProvidedAt, "claude_code_names": ans.ClaudeCodeNames}
		if !ans.Callable {
			out["by"], out["reason"], out["pos"] = ex.By, ex.Reason, ex.Pos
		}
		return writeJSON(g.stdout, out)
	}
	if !ans.Callable {
		textf(g.stdout, "%s: tools.%s: may not call it\n", a.ID, tool)
		textf(g.stdout, "  removed by %s: %s\n", ex.Declaration(), ex.Reason)
	} else {
		textf(g.stdout, "%s: tools.%s: may call it\n", a.ID, tool)
		if a.Decl.Tools.Allowed != nil {
			textf(g.stdout, "  admitted by tools.allowed at %s\n", a.ToolsDeclaredAt["tools.allowed"])
		}
	}
	textf(g.stdout, "  provided by behavior %s (%s)\n", ans.Behavior, ans.ProvidedAt)
	if level := a.Decl.Tools.AccessLevel; level != "" {
		textf(g.stdout, "  access level %s (%s)\n", level, a.ToolsDeclaredAt["tools.access_level"])
	}
	textf(g.stdout, "  Claude Code names: %s\n", model.NameList(ans.ClaudeCodeNames))
	return nil
}
