package lint

import (
	"slices"
	"strings"

	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
)

var reportingCycle = &Rule{
	ID:       "reporting-cycle",
	Severity: diag.Error,
	Summary:  "agents report to each other in a cycle",
	Doc: doc(`reports_to makes a hierarchy: following it from any agent must end at an agent who reports to no one. A cycle (ann reports to bob, bob to ann, or an agent to itself) means escalation never reaches a top, and budget and approval checks that walk up the chain never end. Each cycle is reported once, at the agent with the smallest id in it. Break the cycle: someone in it reports to someone outside it, or to no one.`,
		`agents: ann: authority: reports_to: "bob"
agents: bob: authority: reports_to: "ann"`,
		`agents: ann: authority: reports_to: "bob"
agents: bob: authority: {} // bob is the top`),
	Run: func(p *Pass) {
		agents := p.Config.Agents
		const (
			unseen = iota
			onPath
			done
		)
		state := map[string]int{}
		for _, start := range model.Sorted(agents) {
			var path []string
			cur := start
			for {
				if state[cur] == done {
					break
				}
				if state[cur] == onPath {
					cycle := path[slices.Index(path, cur):]
					first := slices.Min(cycle)
					i := slices.Index(cycle, first)
					ordered := append(append(slices.Clone(cycle[i:]), cycle[:i]...), first)
					p.Reportf([]string{"agents", first, "authority", "reports_to"},
						"agents report to each other in a cycle: %s; break it so that the chain ends at an agent who reports to no one",
						strings.Join(ordered, " -> "))
					break
				}
				a, ok := agents[cur]
				if !ok {
					break
				}
				state[cur] = onPath
				path = append(path, cur)
				if a.Authority.ReportsTo == "" {
					break
				}
				cur = a.Authority.ReportsTo
			}
			for _, id := range path {
				state[id] = done
			}
		}
	},
}
