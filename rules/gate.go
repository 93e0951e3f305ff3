package rules

import (
	"fmt"
	"slices"
	"strings"
)

// GateRule is the rule id of a call the gate blocks.
const GateRule = "permissions"

// Gate is what one agent may call, as the compiler decided it (agent.json's
// effective_tools): the engine checks a call against it before any rule
// runs, and blocks a call outside it whatever the profile says.
type Gate struct {
	// Agent is the agent's id, for messages.
	Agent string
	// Tools are the charter tools the agent may call.
	Tools []string
	// Excluded says, for each tool the agent's behaviors provide and it may
	// not call, why, naming the declaration and its file:line.
	Excluded map[string]string
	// Restricted is set when the agent may call only the tools it lists
	// (an allow-list, or a restricted or sandboxed access level); then
	// RestrictedBy names that declaration.
	Restricted   bool
	RestrictedBy string
	// Declared is set when charter knows the agent's tools: its behaviors
	// provide some, or it declares tools. An agent with neither (a Claude
	// Code subagent with the runtime's own tools) is left to its profile.
	Declared bool
	// Names maps a runtime's name for a tool to charter's tool (the
	// runtimes table), and NameRuntime each such name to its runtime.
	// Runtime is the runtime judged, "" for any.
	Names       map[string]string
	NameRuntime map[string]string
	Runtime     string
}

// check judges a call's tool name. ok lets the call on to the rules, with
// a note when the gate could not place the name.
func (g *Gate) check(tool string) (f Firing, note string, ok bool) {
	name, runtimeName := tool, ""
	if !slices.Contains(g.Tools, tool) && g.Excluded[tool] == "" {
		if t, mapped := g.Names[tool]; mapped {
			name, runtimeName = t, tool
		}
	}
	as := name
	if runtimeName != "" {
		as = fmt.Sprintf("%s (%s's %s)", name, g.NameRuntime[runtimeName], runtimeName)
	}
	block := func(format string, args ...any) (Firing, string, bool) {
		return Firing{Rule: GateRule, Action: Block, Message: fmt.Sprintf(format, args...)}, "", false
	}
	switch {
	case slices.Contains(g.Tools, name):
		return Firing{}, "", true
	case g.Excluded[name] != "":
		return block("%s may not call %s: %s", g.Agent, as, g.Excluded[name])
	case runtimeName != "" && (g.Declared || g.Restricted):
		return block("%s may not call %s: none of its behaviors provides %s; it may call %s", g.Agent, as, name, list(g.Tools))
	case g.Restricted:
		return block("%s may not call %s: %s, and %s may call only what %s admits (%s); if it is one of those, add it: runtimes.%s.tools: %q: TOOL", g.Agent, tool, g.unmapped(tool), g.Agent, g.RestrictedBy, list(g.Tools), g.runtimeLabel(), tool)
	case runtimeName != "":
		return Firing{}, fmt.Sprintf("charter: %s declares no tools and no behavior that provides one, so the profile decides on %s", g.Agent, as), true
	}
	return Firing{}, fmt.Sprintf("charter: %s, and %s has no allow-list, so the profile decides", g.unmapped(tool), g.Agent), true
}

func (g *Gate) unmapped(tool string) string {
	if g.Runtime == "" {
		return fmt.Sprintf("no runtime's tool-name table maps %s to a charter tool", tool)
	}
	return fmt.Sprintf("the %s tool-name table maps %s to no charter tool", g.Runtime, tool)
}

func (g *Gate) runtimeLabel() string {
	if g.Runtime == "" {
		return "RUNTIME"
	}
	return fmt.Sprintf("%q", g.Runtime)
}

func list(tools []string) string {
	if len(tools) == 0 {
		return "no tool"
	}
	return strings.Join(tools, ", ")
}

// SetGate makes the engine check every call against g before its rules:
// a call outside g is blocked, and no rule runs on it. nil removes the
// gate.
func (e *Engine) SetGate(g *Gate) { e.gate = g }
