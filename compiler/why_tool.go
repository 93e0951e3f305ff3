package compiler

import (
	"fmt"
	"slices"

	"github.com/charter-dev/charter/internal/config/model"
)

// ToolAnswer says whether an agent may call a tool, and which declarations
// decided it: what `charter why AGENT tools.TOOL` prints.
type ToolAnswer struct {
	Tool string
	// Behavior is the behavior that provides the tool, declared at
	// ProvidedAt.
	Behavior   string
	ProvidedAt Position
	// Callable is false when the agent's tools fields take the tool away;
	// Exclusion then says which.
	Callable  bool
	Exclusion Exclusion
	// ClaudeCodeNames are Claude Code's names for the tool, from the
	// runtimes table.
	ClaudeCodeNames []string
}

// NoToolError says that none of an agent's behaviors provides a tool.
type NoToolError struct {
	Agent, Tool string
	// Tools are the agent's tools, sorted.
	Tools []string
}

func (e *NoToolError) Error() string {
	return fmt.Sprintf("agent %s has no tool %q: none of its behaviors provides it; its tools: %s", e.Agent, e.Tool, model.NameList(e.Tools))
}

// WhyTool says whether agent a may call tool, and which declarations
// decided it; a *NoToolError when none of its behaviors provides it.
func (p *Program) WhyTool(a *Agent, tool string) (ToolAnswer, error) {
	var provided *ProvidedTool
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
		return ToolAnswer{}, &NoToolError{Agent: a.ID, Tool: tool, Tools: names}
	}
	ex, excluded := a.ExclusionOf(tool)
	ans := ToolAnswer{
		Tool:       tool,
		Behavior:   provided.Behavior,
		ProvidedAt: p.Locate("behaviorTypes", provided.Behavior, "tools", tool),
		Callable:   !excluded,
		Exclusion:  ex,
	}
	if rt, ok := p.Config.Runtimes["claude-code"]; ok {
		ans.ClaudeCodeNames = rt.RuntimeNames(tool)
	}
	return ans, nil
}
