package lint

import (
	"slices"

	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
)

var categoryLeftOut = &Rule{
	ID:       "category-left-out",
	Severity: diag.Warning,
	Summary:  "behavior set for a category that the agent type leaves out of its prompts",
	Doc: doc(`An agent type's categories choose the behavior sections its agents' prompts carry. A setting of any other category, on the type itself or on one of its agents, reaches no prompt: it changes nothing the agent does, though a reader of the configuration would think it does. Add the category to the type's categories, or remove the setting. Presets are not reported: one preset may serve types that carry the category and types that do not.`,
		`agentTypes: coder: {name: "Coder", system_prompt: "You write code.", categories: ["communication"]}
agents: cody: {name: "Cody", type: "coder", behavior: scheduling: ambiguous_time: "ask_user"}`,
		`agentTypes: coder: {name: "Coder", system_prompt: "You write code.", categories: ["communication", "scheduling"]}
agents: cody: {name: "Cody", type: "coder", behavior: scheduling: ambiguous_time: "ask_user"}`),
	Run: func(p *Pass) {
		cfg := p.Config
		leftOut := func(path []string, t *model.AgentType, typeName string, b model.Behavior) {
			for _, c := range model.Sorted(b) {
				if !slices.Contains(t.Categories, c) {
					p.Reportf(append(path, "behavior", c), "agent type %s leaves category %s out of its prompts (its categories: %s), so this setting has no effect: add %s to the type's categories, or remove the setting",
						typeName, c, model.NameList(t.Categories), c)
				}
			}
		}
		for _, name := range model.Sorted(cfg.AgentTypes) {
			if t := cfg.AgentTypes[name]; t.Categories != nil {
				leftOut([]string{"agentTypes", name}, t, name, t.Behavior)
			}
		}
		for _, id := range model.Sorted(cfg.Agents) {
			a := cfg.Agents[id]
			if t, ok := cfg.AgentTypes[a.Type]; ok && t.Categories != nil {
				leftOut([]string{"agents", id}, t, a.Type, a.Behavior)
			}
		}
	},
}
