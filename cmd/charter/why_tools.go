package main

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

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
		known := slices.Clone(nt.Tools)
		for _, bt := range prog.Config.BehaviorTypes {
			known = append(known, slices.Collect(maps.Keys(bt.Tools))...)
		}
		slices.Sort(known)
		if c, ok := validate.Closest(tool, slices.Compact(known)); ok {
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
		if ans.RuntimeName != "" {
			out["tool"], out["runtime_name"], out["runtime"] = ans.Tool, ans.RuntimeName, ans.Runtime
		}
		if !ans.Callable {
			out["by"], out["reason"], out["pos"] = ex.By, ex.Reason, ex.Pos
		}
		return writeJSON(g.stdout, out)
	}
	if ans.RuntimeName != "" {
		state := "may call it"
		if !ans.Callable {
			state = "may not call it"
		}
		textf(g.stdout, "%s: tools.%s: %s\n", a.ID, tool, state)
		desc := ""
		if t, ok := toolDescription(prog, ans.Tool); ok {
			desc = " (" + strings.TrimSuffix(t, ".") + ")"
		}
		textf(g.stdout, "  %s is %s's name for %s%s: eval and the hook judge it as %s\n", ans.RuntimeName, ans.Runtime, ans.Tool, desc, ans.Tool)
		tool = ans.Tool
	}
	switch {
	case ans.NotProvided:
		if ans.RuntimeName == "" {
			textf(g.stdout, "%s: tools.%s: may not call it\n", a.ID, tool)
		}
		if ex.By != "" {
			textf(g.stdout, "  removed by %s: %s\n", ex.Declaration(), ex.Reason)
		} else {
			textf(g.stdout, "  denied: %s\n", ex.Reason)
		}
		textf(g.stdout, "  Claude Code names: %s\n", model.NameList(ans.ClaudeCodeNames))
		return nil
	case !ans.Callable:
		if ans.RuntimeName == "" {
			textf(g.stdout, "%s: tools.%s: may not call it\n", a.ID, tool)
		}
		textf(g.stdout, "  removed by %s: %s\n", ex.Declaration(), ex.Reason)
	case ans.RuntimeName != "":
		if a.Decl.Tools.Allowed != nil {
			textf(g.stdout, "  admitted by tools.allowed at %s\n", a.ToolsDeclaredAt["tools.allowed"])
		}
	default:
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

// toolDescription is the description of a tool some behavior type
// provides.
func toolDescription(prog *compiler.Program, tool string) (string, bool) {
	for _, name := range model.Sorted(prog.Config.BehaviorTypes) {
		if t, ok := prog.Config.BehaviorTypes[name].Tools[tool]; ok {
			return t.Description, true
		}
	}
	return "", false
}
