package compiler

import (
	"errors"
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
	// RuntimeName, when set, is the name asked about, a runtime's name
	// (Runtime's) for Tool: eval and the hook judge a call by that name
	// as a call of Tool.
	RuntimeName, Runtime string
	// NotProvided is set when none of the agent's behaviors provides
	// Tool (asked about by a runtime's name, or denied by a group): the
	// agent may not call it, and Exclusion says why.
	NotProvided bool
}

// NoToolError says that none of an agent's behaviors provides a tool.
type NoToolError struct {
	Agent, Tool string
	// Tools are the agent's tools, sorted.
	Tools []string
}

func (e *NoToolError) Error() string {
	return fmt.Sprintf("agent %s has no tool %q: none of its behaviors provides it, and no runtime's tool-name table maps it, so eval and the hook deny it; its tools: %s", e.Agent, e.Tool, model.NameList(e.Tools))
}

// WhyTool says whether agent a may call tool, and which declarations
// decided it; a *NoToolError when none of its behaviors provides it.
func (p *Program) WhyTool(a *Agent, tool string) (ToolAnswer, error) {
	ans, err := p.whyTool(a, tool)
	var nt *NoToolError
	if !errors.As(err, &nt) {
		return ans, err
	}
	// A runtime's name for a tool: the gate judges the call as that tool.
	for _, rt := range p.runtimeOrder() {
		if t, ok := p.Config.Runtimes[rt].Tools[tool]; ok && t != tool {
			ans, err := p.whyTool(a, t)
			if errors.As(err, &nt) {
				ans, err = p.notProvided(a, t), nil
			}
			ans.RuntimeName, ans.Runtime = tool, rt
			return ans, err
		}
	}
	for _, d := range a.DeniedTools {
		if d.Name == tool {
			return p.notProvided(a, tool), nil
		}
	}
	// A tool some behavior type provides, only not one of the agent's:
	// an answer (it may not call it, and what would give it the tool),
	// not a name to correct.
	if by := p.providers(tool); len(by) > 0 {
		ans := p.notProvided(a, tool)
		ans.Exclusion.Reason += fmt.Sprintf("; give %s a behavior that provides it (%s), or list it in tools.allowed", a.ID, model.NameList(by))
		return ans, nil
	}
	return ans, err
}

// providers lists the behavior types that provide tool, sorted.
func (p *Program) providers(tool string) []string {
	var by []string
	for name, bt := range p.Config.BehaviorTypes {
		if _, ok := bt.Tools[tool]; ok {
			by = append(by, name)
		}
	}
	slices.Sort(by)
	return by
}

// runtimeOrder lists the runtimes, Claude Code first.
func (p *Program) runtimeOrder() []string {
	names := model.Sorted(p.Config.Runtimes)
	if i := slices.Index(names, "claude-code"); i > 0 {
		names = append([]string{"claude-code"}, slices.Delete(names, i, i+1)...)
	}
	return names
}

// notProvided is the answer for a tool none of the agent's behaviors
// provides: the gate denies it.
func (p *Program) notProvided(a *Agent, tool string) ToolAnswer {
	ans := ToolAnswer{Tool: tool, NotProvided: true}
	for _, d := range a.DeniedTools {
		if d.Name == tool {
			ans.Exclusion = Exclusion{Name: tool, By: "tools.denied", Reason: namedBy("tools.denied", tool, d.Group), Pos: a.ToolsDeclaredAt["tools.denied"]}
			break
		}
	}
	if ans.Exclusion.Reason == "" {
		ans.Exclusion = Exclusion{Name: tool, Reason: fmt.Sprintf("none of its behaviors provides %s, so it is not in %s's effective tools", tool, a.ID)}
	}
	if rt, ok := p.Config.Runtimes["claude-code"]; ok {
		ans.ClaudeCodeNames = rt.RuntimeNames(tool)
	}
	return ans
}

func (p *Program) whyTool(a *Agent, tool string) (ToolAnswer, error) {
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
