package lint

import (
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
)

var cardWithoutSkills = &Rule{
	ID:       "card-without-skills",
	Severity: diag.Warning,
	Summary:  "an agent with no skills gets an A2A card with an empty skills list",
	Doc: doc(`Every agent gets an A2A Agent Card in the bundle, and the A2A specification requires a card to list at least one skill: skills are how other agents and people find out what this agent does and choose it for a task. An agent that declares none gets "skills": [], a card that strict A2A readers reject and that no client routing by skill will ever pick. Declare at least one skill, with a description and tags.`,
		`agents: ann: {name: "Ann", type: "personal_assistant"}`,
		`agents: ann: {name: "Ann", type: "personal_assistant", skills: primary: [{id: "billing", name: "Billing", description: "Explains invoices.", tags: ["accounts"]}]}`),
	Run: func(p *Pass) {
		for _, id := range model.Sorted(p.Config.Agents) {
			s := p.Config.Agents[id].Skills
			if len(s.Primary) == 0 && len(s.Secondary) == 0 {
				p.Reportf([]string{"agents", id}, "agent %s declares no skills, so its A2A card lists none, which the A2A specification does not allow: other agents cannot tell what it does or pick it for a task; declare at least one skill under skills: primary", id)
			}
		}
	},
}

var skillWithoutTags = &Rule{
	ID:       "skill-without-tags",
	Severity: diag.Warning,
	Summary:  "a skill with no tags gets an empty tags list in the A2A card",
	Doc: doc(`A skill becomes an AgentSkill of the agent's A2A card, where tags are required and the A2A specification asks for at least one: they are the keywords clients search and route by. A skill without tags (or with tags: []) gets "tags": [] in the card, which strict A2A readers reject and keyword search never finds. Give it one or more tags.`,
		`agents: ann: skills: primary: [{id: "billing", name: "Billing", description: "Explains invoices.", tags: []}]`,
		`agents: ann: skills: primary: [{id: "billing", name: "Billing", description: "Explains invoices.", tags: ["accounts", "billing"]}]`),
	Run: func(p *Pass) {
		for _, id := range model.Sorted(p.Config.Agents) {
			s := p.Config.Agents[id].Skills
			for _, tier := range []struct {
				name   string
				skills []model.Skill
			}{{"primary", s.Primary}, {"secondary", s.Secondary}} {
				for i, sk := range tier.skills {
					if len(sk.Tags) == 0 {
						p.Reportf([]string{"agents", id, "skills", tier.name, index(i)}, "skill %s has no tags, so its A2A card gives it \"tags\": [], which the A2A specification does not allow: clients searching by keyword will not find it; add tags: [\"...\"]", sk.ID)
					}
				}
			}
		}
	},
}
