package lint

import (
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
)

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
