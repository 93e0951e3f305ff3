package lint

import (
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
)

var skillMissingDescription = &Rule{
	ID:       "skill-missing-description",
	Severity: diag.Info,
	Summary:  "a skill without a description",
	Doc: doc(`Skills become the skills of the agent's A2A Agent Card, where description is required: it is what other agents and people read to decide whether to send this agent a task. A skill without one gets an empty description in the card. Say in a sentence what the skill does.`,
		`agents: ann: skills: primary: [{id: "billing", name: "Billing"}]`,
		`agents: ann: skills: primary: [{id: "billing", name: "Billing", description: "Explains invoices and fixes billing errors."}]`),
	Run: func(p *Pass) {
		for _, id := range model.Sorted(p.Config.Agents) {
			s := p.Config.Agents[id].Skills
			for _, tier := range []struct {
				name   string
				skills []model.Skill
			}{{"primary", s.Primary}, {"secondary", s.Secondary}} {
				for i, sk := range tier.skills {
					if sk.Description == "" {
						p.Reportf([]string{"agents", id, "skills", tier.name, index(i)}, "skill %s has no description, which its A2A card requires: say in a sentence what it does", sk.ID)
					}
				}
			}
		}
	},
}
