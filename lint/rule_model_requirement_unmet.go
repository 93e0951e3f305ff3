package lint

import (
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
)

var modelRequirementUnmet = &Rule{
	ID:       "model-requirement-unmet",
	Severity: diag.Warning,
	Summary:  "an agent's model falls short of its model_requirement",
	Doc: doc(`model_requirement is what the agent's role asks of a model: a tier and a minimum context window. The model the agent runs on should meet it: a model_tier other than the required tier, or a model whose context window (as models declares it) is smaller than min_context, means the model matcher's choice and the role disagree. Pick a model that meets the requirement, or change the requirement.`,
		`models: "m-small": context_window: 8000
agents: ann: {
	model: {provider: "p", model_id: "m-small", model_tier: "small"}
	model_requirement: {tier: "medium", min_context: 32000}
}`,
		`models: "m-medium": context_window: 32000
agents: ann: {
	model: {provider: "p", model_id: "m-medium", model_tier: "medium"}
	model_requirement: {tier: "medium", min_context: 32000}
}`),
	Run: func(p *Pass) {
		cfg := p.Config
		for _, id := range model.Sorted(cfg.Agents) {
			a := cfg.Agents[id]
			req, m := a.ModelRequirement, a.Model
			if req == nil || m == nil {
				continue
			}
			if req.Tier != "" && m.Tier != "" && req.Tier != m.Tier {
				p.Reportf([]string{"agents", id, "model", "model_tier"}, "model_tier is %s, but model_requirement asks for tier %s: pick a %s model, or change the requirement", m.Tier, req.Tier, req.Tier)
			}
			if info, ok := cfg.Models[m.ModelID]; ok && req.MinContext > info.ContextWindow {
				p.Reportf([]string{"agents", id, "model", "model_id"}, "model %s has a context window of %d tokens, under model_requirement.min_context %d: pick a model with a larger window, or lower min_context", m.ModelID, info.ContextWindow, req.MinContext)
			}
		}
	},
}
