package render

import (
	"strings"

	"github.com/charter-dev/charter/compiler"
)

// labels are the natural-language labels the personality enums are written
// into the prompt as (the floats are for team scoring only, never here).
var labels = map[string]map[string]string{
	"decision_making": {
		"analytical":   "Decision making: analytical. Weigh the evidence and reason step by step before deciding.",
		"intuitive":    "Decision making: intuitive. Decide quickly from experience and revisit when facts change.",
		"consultative": "Decision making: consultative. Ask the people affected before deciding.",
		"directive":    "Decision making: directive. Decide clearly and take responsibility for the decision.",
	},
	"collaboration": {
		"independent": "Collaboration: independent. Work on your own and report results.",
		"pair":        "Collaboration: pair. Work closely with one partner and review each other's work.",
		"team":        "Collaboration: team. Coordinate with the whole team and share progress openly.",
	},
	"verbosity": {
		"terse":    "Verbosity: terse. Use as few words as will do.",
		"balanced": "Verbosity: balanced. Say what is needed, with brief reasons.",
		"verbose":  "Verbosity: verbose. Explain fully, with context and reasoning.",
	},
	"conflict_approach": {
		"avoid":       "In disagreements: avoid. Step back from conflicts that do not matter to the goal.",
		"accommodate": "In disagreements: accommodate. Yield to others' needs where you can.",
		"compete":     "In disagreements: compete. Argue firmly for the position you believe is right.",
		"compromise":  "In disagreements: compromise. Find a middle ground both sides can accept.",
		"collaborate": "In disagreements: collaborate. Look for a solution that meets everyone's goals.",
	},
}

type labelLine struct{ field, text string }

func personalityLines(a *compiler.Agent) []labelLine {
	p := a.Decl.Personality
	if p == nil {
		return nil
	}
	var out []labelLine
	if len(p.Traits) > 0 {
		out = append(out, labelLine{"traits", "Traits: " + strings.Join(p.Traits, ", ") + "."})
	}
	if p.CommunicationStyle != "" {
		out = append(out, labelLine{"communication_style", "Communication style: " + p.CommunicationStyle + "."})
	}
	if p.RiskTolerance != "" {
		out = append(out, labelLine{"risk_tolerance", "Risk tolerance: " + p.RiskTolerance + "."})
	}
	if p.Creativity != "" {
		out = append(out, labelLine{"creativity", "Creativity: " + p.Creativity + "."})
	}
	for _, f := range []struct{ field, value string }{
		{"decision_making", p.DecisionMaking}, {"collaboration", p.Collaboration},
		{"verbosity", p.Verbosity}, {"conflict_approach", p.ConflictApproach},
	} {
		if f.value != "" {
			out = append(out, labelLine{f.field, labels[f.field][f.value]})
		}
	}
	if d := strings.TrimSpace(p.Description); d != "" {
		out = append(out, labelLine{"description", strings.Join(strings.Fields(d), " ")})
	}
	return out
}
