package lint

import (
	"slices"

	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/rules"
)

var settingContradictsProfile = &Rule{
	ID:       "setting-contradicts-profile",
	Severity: diag.Warning,
	Summary:  "a setting tells the agent to act without approval where its profile blocks or asks on every such call",
	Doc: doc(`A setting that declares the tool families it is about (approval.financial_actions: payment) and an order of strictness says, at its loosest option, to go ahead without approval ("Proceed without approval"). When the agent's rule profile blocks, or asks the user about, every call of one of those families (an enabled block or ask rule with no condition), the prompt and the runtime disagree: the agent is told to proceed, and every call is stopped. The finding is at the choice that won. Choose a stricter option, or change the rule.`,
		`agents: dash: {
	name: "Dash"
	type: "personal_assistant"
	profile: "assistant" // confirm_payments blocks every payment
	behavior: approval: financial_actions: "proceed"
}`,
		`agents: dash: {
	name: "Dash"
	type: "personal_assistant"
	profile: "assistant"
	behavior: approval: financial_actions: "require_approval"
}`),
	Run: func(p *Pass) {
		for _, a := range p.Program.Agents {
			if a.Profile == nil {
				continue
			}
			for _, c := range a.Behavior {
				cat := p.Config.Categories[c.Name]
				for _, s := range c.Settings {
					decl := cat.Settings[s.Name]
					if len(decl.Families) == 0 || len(decl.Strictness) < 2 || s.Value.Name != decl.Strictness[len(decl.Strictness)-1] {
						continue
					}
					for _, r := range a.Profile.Rules {
						if !r.Enabled || r.Condition != nil || (r.Action != rules.Block && r.Action != rules.Ask) || !slices.Contains(decl.Families, r.Trigger) {
							continue
						}
						path := s.Origin.Labels()
						if s.Origin.Layer == "default" || p.Builtin(path...) {
							path = []string{"agents", a.ID, "profile"}
						}
						verb := "blocks"
						if r.Action == rules.Ask {
							verb = "asks the user about"
						}
						p.Reportf(path, "%s's %s.%s is %s (%s), but rule %s of profile %s %s every %s call: the prompt says to go ahead and the runtime stops the call; choose a stricter option, or change the rule",
							a.ID, c.Name, s.Name, s.Value, p.Program.Describe(s.Origin), r.ID, a.Profile.Name, verb, r.Trigger)
					}
				}
			}
		}
	},
}
