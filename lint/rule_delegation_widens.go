package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/rules"
)

var delegationWidens = &Rule{
	ID:       "delegation-widens",
	Severity: diag.Warning,
	Summary:  "an agent may delegate to an agent that may call more than it",
	Doc: doc(`can_delegate_to is enforced where agents run: an agent may start the agents it names (a role: its members), and the calls of each are judged as that agent's. When one of them may call a tool the delegator may not (its effective tools, after tools.allowed, tools.denied and access_level), or calls a tool the delegator may call without a limit the delegator's behaviors put on it (a whitelist of programs), delegation widens what a session of the delegator can do: an agent denied run_bash runs commands through the agent it starts. That may be the point (a planner hands the coding to coders); say so with a charter:ignore comment, or narrow the delegate, or drop it from can_delegate_to.`,
		`agents: ana: {behaviors: [{type: "DelegationBehavior"}], authority: can_delegate_to: ["bo"]}
agents: bo: behaviors: [{type: "CommandToolsBehavior"}]`,
		`agents: ana: {behaviors: [{type: "DelegationBehavior"}, {type: "CommandToolsBehavior"}], authority: can_delegate_to: ["bo"]}
agents: bo: behaviors: [{type: "CommandToolsBehavior"}]`),
	Run: func(p *Pass) {
		byID := map[string]*compiler.Agent{}
		for _, a := range p.Program.Agents {
			byID[a.ID] = a
		}
		for _, a := range p.Program.Agents {
			for i, name := range a.Decl.Authority.CanDelegateTo {
				var wider []string
				for _, id := range compiler.Delegates(p.Config, []string{name}) {
					b := byID[id]
					if b == nil || id == a.ID {
						continue
					}
					if more := widens(a, b); more != "" {
						wider = append(wider, fmt.Sprintf("%s %s", id, more))
					}
				}
				if len(wider) == 0 {
					continue
				}
				via := ""
				if _, role := p.Config.Roles[name]; role {
					via = fmt.Sprintf(" (through role %s)", name)
				}
				p.Reportf([]string{"agents", a.ID, "authority", "can_delegate_to", index(i)},
					"%s may start %s%s, so a session of %s can do more than %s may: %s; narrow the delegate, drop it, or say why with charter:ignore",
					a.ID, name, via, a.ID, a.ID, strings.Join(wider, "; "))
			}
		}
	},
}

// widens says what agent b may call that a may not, or "".
func widens(a, b *compiler.Agent) string {
	mine := a.EffectiveNames()
	var more, looser []string
	for _, t := range b.EffectiveNames() {
		if !slices.Contains(mine, t) {
			more = append(more, t)
			continue
		}
		for _, c := range a.Constraints {
			if c.Tool == t && !holds(b.Constraints, c) {
				looser = append(looser, fmt.Sprintf("%s without %s's %s", t, c.Behavior, c.Param))
			}
		}
	}
	var parts []string
	if len(more) > 0 {
		parts = append(parts, "may call "+strings.Join(more, ", "))
	}
	if len(looser) > 0 {
		parts = append(parts, "calls "+strings.Join(looser, ", "))
	}
	return strings.Join(parts, ", and ")
}

// holds reports whether some constraint of cs limits the calls c does at
// least as much: the same tool, argument and check, its values among c's.
func holds(cs []rules.Constraint, c rules.Constraint) bool {
	return slices.ContainsFunc(cs, func(d rules.Constraint) bool {
		if d.Tool != c.Tool || d.Field != c.Field || d.Check != c.Check {
			return false
		}
		for _, v := range d.Values {
			if !slices.Contains(c.Values, v) {
				return false
			}
		}
		return true
	})
}
