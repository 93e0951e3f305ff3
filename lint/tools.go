package lint

import (
	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/rules"
)

// triggerTools returns the tool names a trigger stands for in a profile:
// the members of the family it names, or the tool itself. ok is false for
// "*".
func triggerTools(pr *rules.Profile, trigger string) (tools []string, ok bool) {
	if trigger == "*" || trigger == "" {
		return nil, false
	}
	if members, fam := pr.ToolFamilies[trigger]; fam {
		return members, true
	}
	return []string{trigger}, true
}

// provides reports whether the agent's behaviors provide the tool.
func provides(a *compiler.Agent, tool string) bool {
	for _, t := range a.Tools {
		if t.Name == tool {
			return true
		}
	}
	return false
}

// toolNames lists the agent's tools.
func toolNames(a *compiler.Agent) []string {
	out := make([]string, len(a.Tools))
	for i, t := range a.Tools {
		out[i] = t.Name
	}
	return out
}

// triggerDecl returns the profile in name's extends chain (name first)
// whose declaration of rule id sets the trigger that wins.
func triggerDecl(p *Pass, name, id string) string {
	if o, ok := p.Program.RuleOrigins[name][id]; ok {
		return o.Trigger
	}
	return name
}
