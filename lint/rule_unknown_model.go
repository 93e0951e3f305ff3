package lint

import (
	"maps"
	"slices"

	"github.com/charter-dev/charter/diag"
	"github.com/charter-dev/charter/model"
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

var highTemperature = &Rule{
	ID:       "high-temperature",
	Severity: diag.Info,
	Summary:  "a temperature above 1 on a small-tier model (off by default)",
	Off:      true,
	Doc: doc(`Small models drift faster than large ones as temperature rises; above 1 their output turns incoherent and tool calls malformed. The rule flags model.temperature above 1 with tier small. It is a style judgement, so it is off by default: turn it on with --enable high-temperature.`,
		`agents: ann: model: {provider: "example-provider", model_id: "example-small-001", model_tier: "small", temperature: 1.4}`,
		`agents: ann: model: {provider: "example-provider", model_id: "example-small-001", model_tier: "small", temperature: 0.7}`),
	Run: func(p *Pass) {
		for _, id := range model.Sorted(p.Config.Agents) {
			m := p.Config.Agents[id].Model
			if m != nil && m.Tier == "small" && m.Temperature != nil && *m.Temperature > 1 {
				p.Reportf([]string{"agents", id, "model", "temperature"}, "temperature %s on a small-tier model makes output erratic: use 1 or less", model.NumberChoice(*m.Temperature))
			}
		}
	},
}

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
