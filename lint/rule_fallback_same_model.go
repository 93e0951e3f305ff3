package lint

import (
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
)

var fallbackSameModel = &Rule{
	ID:       "fallback-same-model",
	Severity: diag.Warning,
	Summary:  "an agent's fallback_model is the model itself",
	Doc: doc(`fallback_model is what the runtime switches to when the model fails or is unavailable. Falling back to the same model retries the failure and gives no resilience. Pick a different model, ideally from another provider, or leave fallback_model out.`,
		`agents: ann: model: {provider: "openai", model_id: "gpt-4o", fallback_model: "gpt-4o"}`,
		`agents: ann: model: {provider: "openai", model_id: "gpt-4o", fallback_model: "claude-sonnet-4"}`),
	Run: func(p *Pass) {
		for _, id := range model.Sorted(p.Config.Agents) {
			m := p.Config.Agents[id].Model
			if m != nil && m.FallbackModel != "" && m.FallbackModel == m.ModelID {
				p.Reportf([]string{"agents", id, "model", "fallback_model"}, "fallback_model is %s, the model itself, so falling back retries the same failure: pick a different model or remove fallback_model", m.ModelID)
			}
		}
	},
}
