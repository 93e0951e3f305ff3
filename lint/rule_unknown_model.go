package lint

import (
	"maps"
	"slices"

	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
)

var unknownModel = &Rule{
	ID:       "unknown-model",
	Severity: diag.Warning,
	Summary:  "a model_id or fallback_model that models does not declare",
	Doc: doc(`models declares the models agents run on, with their context windows (the standard library lists common ones). An agent's model.model_id or fallback_model that is not declared there is often a typo, and its prompt cannot be checked against the model's context window (prompt-over-budget). The message names the closest model. Fix the id, or declare the model: models: "my-model": context_window: 32000.`,
		`agents: ann: model: {provider: "anthropic", model_id: "claude-sonet-4"}`,
		`agents: ann: model: {provider: "anthropic", model_id: "claude-sonnet-4"}`),
	Run: func(p *Pass) {
		cfg := p.Config
		var ids []string
		for _, id := range model.Sorted(cfg.Agents) {
			m := cfg.Agents[id].Model
			if m == nil {
				continue
			}
			for _, f := range []struct{ field, value string }{{"model_id", m.ModelID}, {"fallback_model", m.FallbackModel}} {
				if f.value == "" {
					continue
				}
				if _, ok := cfg.Models[f.value]; ok {
					continue
				}
				if ids == nil {
					ids = slices.Sorted(maps.Keys(cfg.Models))
				}
				p.Reportf([]string{"agents", id, "model", f.field}, "model %q is not declared under models, so its context window is unknown%s; declare it: models: %q: context_window: N", f.value, didYouMean(f.value, ids), f.value)
			}
		}
	},
}
