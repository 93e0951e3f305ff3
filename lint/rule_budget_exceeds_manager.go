package lint

import (
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
)

var budgetExceedsManager = &Rule{
	ID:       "budget-exceeds-manager",
	Severity: diag.Warning,
	Summary:  "an agent's budget_limit exceeds that of the agent it reports to",
	Doc: doc(`An agent may spend up to its authority.budget_limit; the agent it reports to is where spending escalates. A report who may spend more than the manager can approve on their own behalf inverts the hierarchy: the manager cannot review spending they could not make. Lower the report's budget_limit, raise the manager's, or change reports_to.`,
		`agents: bob: authority: budget_limit: 500
agents: ann: authority: {reports_to: "bob", budget_limit: 900}`,
		`agents: bob: authority: budget_limit: 1000
agents: ann: authority: {reports_to: "bob", budget_limit: 900}`),
	Run: func(p *Pass) {
		for _, id := range model.Sorted(p.Config.Agents) {
			auth := p.Config.Agents[id].Authority
			if auth.BudgetLimit == nil || auth.ReportsTo == "" || auth.ReportsTo == id {
				continue
			}
			m, ok := p.Config.Agents[auth.ReportsTo]
			if !ok || m.Authority.BudgetLimit == nil {
				continue
			}
			if *auth.BudgetLimit > *m.Authority.BudgetLimit {
				p.Reportf([]string{"agents", id, "authority", "budget_limit"},
					"budget_limit %s exceeds %s's budget_limit %s, the agent it reports to: lower it, or raise the manager's",
					model.NumberChoice(*auth.BudgetLimit), auth.ReportsTo, model.NumberChoice(*m.Authority.BudgetLimit))
			}
		}
	},
}
