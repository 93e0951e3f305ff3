package render

import "github.com/charter-dev/charter/compiler"

// autonomyTexts are the prompt lines of autonomy_level and
// strategic_output_mode: how far the agent may act on its own, and what
// it gives when asked to decide.
var autonomyTexts = map[string]map[string]string{
	"autonomy_level": {
		"full":       "Autonomy: full. Decide and act on your own; report what you did.",
		"semi":       "Autonomy: semi. Act on your own for routine work; ask for approval before consequential or irreversible actions.",
		"supervised": "Autonomy: supervised. Propose each action and wait for approval before you take it.",
		"locked":     "Autonomy: locked. Take no actions; answer and advise only.",
	},
	"strategic_output_mode": {
		"option_expander":   "When asked to decide: lay out the options with their trade-offs; do not choose one.",
		"advisor":           "When asked to decide: lay out the options and recommend one, with your reasons; leave the decision to the person asking.",
		"decision_maker":    "When asked to decide: make the decision and state it with your reasons.",
		"context_dependent": "When asked to decide: choose, by what the request asks and what is at stake, between laying out options, recommending one and deciding.",
	},
}

// autonomyLines is the AUTONOMY section: a line for each of the agent's
// autonomy_level and strategic_output_mode that is set.
func autonomyLines(a *compiler.Agent) []labelLine {
	var out []labelLine
	for _, f := range []struct{ field, value string }{
		{"autonomy_level", a.Decl.AutonomyLevel},
		{"strategic_output_mode", a.Decl.StrategicOutputMode},
	} {
		if t := autonomyTexts[f.field][f.value]; t != "" {
			out = append(out, labelLine{f.field, t})
		}
	}
	return out
}
