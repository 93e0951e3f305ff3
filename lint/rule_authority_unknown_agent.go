package lint

import (
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
)

var authorityUnknownAgent = &Rule{
	ID:       "authority-unknown-agent",
	Severity: diag.Error,
	Summary:  "authority.reports_to or can_delegate_to names no agent",
	Doc: doc(`authority.reports_to and authority.can_delegate_to hold agent ids. One that names no agent breaks escalation and delegation at run time, when the agent tries to reach a colleague who does not exist; it also hides the pair from the team compatibility scores. The message names the closest agent id. Fix the id, or declare the agent.`,
		`agents: ann: authority: reports_to: "bobb"`,
		`agents: ann: authority: reports_to: "bob"`),
	Run: func(p *Pass) {
		var ids []string
		for _, a := range p.Program.Agents {
			ids = append(ids, a.ID)
		}
		for _, id := range model.Sorted(p.Config.Agents) {
			auth := p.Config.Agents[id].Authority
			if to := auth.ReportsTo; to != "" {
				if _, ok := p.Config.Agents[to]; !ok {
					p.ReportNamef([]string{"agents", id, "authority", "reports_to"}, to, ids, "reports_to names no agent %q%s", to, didYouMean(to, ids))
				}
			}
			for i, to := range auth.CanDelegateTo {
				if _, ok := p.Config.Agents[to]; !ok {
					p.ReportNamef([]string{"agents", id, "authority", "can_delegate_to", index(i)}, to, ids, "can_delegate_to names no agent %q%s", to, didYouMean(to, ids))
				}
			}
		}
	},
}
