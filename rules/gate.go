package rules

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/charter-dev/charter/internal/enforce/shell"
)

// GateRule is the rule id of a call the gate blocks.
const GateRule = "permissions"

// Gate is what one agent may call, as the compiler decided it (agent.json's
// effective_tools; ReadGate reads it): the engine checks a call against it
// before any rule runs, and blocks a call outside it whatever the profile
// says. It denies by default: a name no runtime's table maps to a tool the
// agent may call is blocked.
type Gate struct {
	// Agent is the agent's id, for messages.
	Agent string
	// Tools are the charter tools the agent may call.
	Tools []string
	// Excluded says, for each tool the agent may not call that its
	// declarations name (a tool its behaviors provide, or one its
	// tools.denied names, alone or through a group), why, naming the
	// declaration and its file:line.
	Excluded map[string]string
	// Restricted is set when the agent may call only the tools it lists
	// (an allow-list, or a restricted or sandboxed access level); then
	// RestrictedBy names that declaration.
	Restricted   bool
	RestrictedBy string
	// Declared is set when charter knows the agent's tools: its behaviors
	// provide some, or it declares tools. An agent with neither may call
	// no tool: declaring nothing never grants everything.
	Declared bool
	// Names maps a runtime's name for a tool to charter's tool (the
	// runtimes table), and NameRuntime each such name to its runtime.
	// Runtime is the runtime judged, "" for any.
	Names       map[string]string
	NameRuntime map[string]string
	Runtime     string
	// Constraints limit the calls of the tools the agent may call (a
	// behavior's parameter that restricts them, such as
	// CommandToolsBehavior's whitelist).
	Constraints []Constraint
	// Delegates are the bundle agents the agent may start (agent.json's
	// delegates_to: its authority.can_delegate_to resolved); it may
	// start itself too. A delegation call (DelegationTool, or a runtime
	// name mapped to it) that names another bundle agent is blocked.
	Delegates []string
	// Roster is the bundle's agents, to tell them from a runtime's own
	// subagents; the runtime sets it (ReadGate cannot). Without it, a
	// delegation call may start only the agent itself and its Delegates.
	Roster *Agents
}

// Constraint is a behavior parameter that limits the calls of one of the
// behavior's tools: agent.json's tool_constraints.
type Constraint struct {
	// Tool is the charter tool whose calls it limits.
	Tool string `json:"tool"`
	// Field is the argument it reads.
	Field string `json:"field"`
	// Check is how: "programs" (every program the shell command in Field
	// runs is one of Values) or "values" (Field is one of Values).
	Check string `json:"check"`
	// Values are the parameter's values.
	Values []string `json:"values"`
	// Behavior and Param name the parameter, for messages.
	Behavior string `json:"behavior"`
	Param    string `json:"param"`
}

// The checks a Constraint makes.
const (
	CheckPrograms = "programs"
	CheckValues   = "values"
)

// check judges a call's tool name and arguments. ok lets the call on to
// the rules, with a note when the gate has something to say.
func (g *Gate) check(tool string, args map[string]any, cmds *commandCache) (f Firing, note string, ok bool) {
	f, note, ok = g.checkTool(tool, args, cmds)
	if !ok || (tool != DelegationTool && g.Names[tool] != DelegationTool) {
		return f, note, ok
	}
	// Whoever decided the tool (the gate, or the profile for an agent
	// that declares none), the agents a delegation starts are the gate's.
	f, dnote, ok := g.delegation(tool, args)
	if !ok {
		return f, "", false
	}
	return f, strings.TrimSpace(note + "\n" + dnote), true
}

func (g *Gate) checkTool(tool string, args map[string]any, cmds *commandCache) (f Firing, note string, ok bool) {
	name, runtimeName := tool, ""
	if !slices.Contains(g.Tools, tool) && g.Excluded[tool] == "" {
		// A runtime whose name for a tool is charter's (Gemini CLI's
		// read_file) does not make the call that runtime's.
		if t, mapped := g.Names[tool]; mapped && t != tool {
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
		for _, c := range g.Constraints {
			if c.Tool == name {
				if why := c.admits(args, cmds); why != "" {
					return block("%s may not make this %s call: %s", g.Agent, as, why)
				}
			}
		}
		return Firing{}, "", true
	case g.Excluded[name] != "":
		return block("%s may not call %s: %s", g.Agent, as, g.Excluded[name])
	case (runtimeName != "" || g.mapsTo(tool)) && (g.Declared || g.Restricted):
		// A charter tool (or a runtime's name for one) the agent lacks:
		// the tool-name table is not what to change.
		return block("%s may not call %s: none of its behaviors provides %s; it may call %s", g.Agent, as, name, list(g.Tools))
	case !g.Declared && !g.Restricted && (runtimeName != "" || g.mapsTo(tool)):
		// Declaring nothing never grants everything: the agent's
		// exports give it no tool (tools: []), and its calls are denied
		// the same way.
		return block("%s may not call %s: it has no tools (it declares none and none of its behaviors provides one), and an agent without tools may call none; give it a behavior that provides %s, or list it in tools.allowed", g.Agent, as, name)
	case g.Restricted:
		return block("%s may not call %s: %s, and %s may call only what %s admits (%s); if it is one of those, add it: runtimes.%s.tools: %q: TOOL", g.Agent, tool, g.unmapped(tool), g.Agent, g.RestrictedBy, list(g.Tools), g.runtimeLabel(), tool)
	}
	return block("%s may not call %s: %s, and charter denies a tool it cannot place; if it is one of %s's tools, add it to the table: runtimes.%s.tools: %q: TOOL", g.Agent, tool, g.unmapped(tool), g.Agent, g.runtimeLabel(), tool)
}

// mapsTo reports whether some runtime's name maps to the charter tool.
func (g *Gate) mapsTo(tool string) bool {
	for _, t := range g.Names {
		if t == tool {
			return true
		}
	}
	return false
}

// admits says why a call breaks the constraint, or "".
func (c Constraint) admits(args map[string]any, cmds *commandCache) string {
	v, present := args[c.Field]
	if !present {
		if c.Check == CheckPrograms && cmds != nil && cmds.has && cmds.src == "" {
			// A tool that runs commands with its command elsewhere.
			if _, err := cmds.commands(); err != nil {
				return fmt.Sprintf("charter cannot read its command (%v), and %s admits only commands it can read that run %s", err, c.param(), list(c.Values))
			}
		}
		return ""
	}
	s, isString := v.(string)
	switch c.Check {
	case CheckValues:
		if !isString || !slices.Contains(c.Values, s) {
			return fmt.Sprintf("its %s must be one of what %s names (%s)", c.Field, c.param(), list(c.Values))
		}
		return ""
	case CheckPrograms:
		if !isString {
			return fmt.Sprintf("its %s is not a string, so charter cannot tell the programs it runs; %s admits only %s", c.Field, c.param(), list(c.Values))
		}
		var parsed []shell.Command
		var err error
		if cmds != nil && cmds.has && cmds.src == s {
			parsed, err = cmds.commands()
		} else {
			p := parseLine(s)
			parsed, err = p.cmds, p.err
		}
		if err != nil {
			return fmt.Sprintf("charter cannot read the command (%v), and %s admits only commands it can read that run %s", err, c.param(), list(c.Values))
		}
		var bad []string
		for _, cmd := range parsed {
			for _, w := range cmd.Privileged() {
				if !slices.Contains(c.Values, w) && !slices.Contains(bad, w) {
					bad = append(bad, w)
				}
			}
			switch {
			case cmd.Inert():
			case !cmd.Known:
				return fmt.Sprintf("it runs a program charter cannot name (%s), and %s admits only %s", cmd.Reason, c.param(), list(c.Values))
			case len(cmd.RunChanging()) > 0:
				return fmt.Sprintf("it sets %s for %s, which changes what runs whatever the program's name, and %s admits only the programs %s", strings.Join(cmd.RunChanging(), ", "), cmd.Program, c.param(), list(c.Values))
			// The name as written: the whitelist names programs exactly
			// (Program is folded, GIT and git.exe to git, for the rules).
			case !slices.Contains(c.Values, path.Base(cmd.Path)) && !slices.Contains(c.Values, cmd.Path):
				if name := path.Base(cmd.Path); !slices.Contains(bad, name) {
					bad = append(bad, name)
				}
			case cmd.Path != path.Base(cmd.Path) && !slices.Contains(c.Values, cmd.Path) && !systemPath(cmd.Path):
				// ./git, /tmp/x/git: another program of that name.
				if !slices.Contains(bad, cmd.Path) {
					bad = append(bad, cmd.Path)
				}
			}
		}
		if len(bad) > 0 {
			verb := "is"
			if len(bad) > 1 {
				verb = "are"
			}
			return fmt.Sprintf("it may run only the programs %s names (%s), and %s %s not among them", c.param(), list(c.Values), strings.Join(bad, ", "), verb)
		}
	}
	return ""
}

// param names the behavior parameter, for messages.
func (c Constraint) param() string { return c.Behavior + "'s " + c.Param }

// systemPath reports whether a program's path is its name in one of the
// system's program folders (/usr/bin/git), which only an administrator
// writes.
func systemPath(p string) bool {
	dir, _ := path.Split(p)
	switch dir {
	case "/bin/", "/usr/bin/", "/usr/local/bin/", "/sbin/", "/usr/sbin/", "/usr/local/sbin/":
		return true
	}
	return false
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
