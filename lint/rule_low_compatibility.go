package lint

import (
	"github.com/charter-dev/charter/internal/artifact/team"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
)

// CompatibilityThreshold is the team compatibility score below which a
// reports_to or can_delegate_to pair is flagged.
const CompatibilityThreshold = 0.5

var lowCompatibility = &Rule{
	ID:       "low-compatibility",
	Severity: diag.Info,
	Summary:  "a reports_to or can_delegate_to pair has a low team compatibility score",
	Doc: doc(`charter scores how well two agents work together from their personalities (60% Big Five similarity, with extraversion best at a 0.3 difference; 20% collaboration style; 20% conflict approach; see dist/team.json). A pair joined by reports_to or can_delegate_to that scores below 0.5 is likely to clash: opposite collaboration styles, two competing or avoiding conflict approaches, far-apart traits. It is information, not an error: review the pairing, or adjust a personality.`,
		`agents: ann: {personality: {collaboration: "independent", conflict_approach: "compete", openness: 0.1}, authority: reports_to: "bob"}
agents: bob: personality: {collaboration: "team", conflict_approach: "avoid", openness: 0.9}`,
		`agents: ann: {personality: {collaboration: "pair", conflict_approach: "collaborate", openness: 0.6}, authority: reports_to: "bob"}
agents: bob: personality: {collaboration: "team", conflict_approach: "compromise", openness: 0.7}`),
	Run: func(p *Pass) {
		agents := p.Config.Agents
		check := func(path []string, relation, from, to string) {
			b, ok := agents[to]
			if !ok || to == from {
				return
			}
			s := team.Compatibility(agents[from].Personality, b.Personality)
			if s.Score < CompatibilityThreshold {
				p.Reportf(path, "%s and %s (%s) score %.2f for compatibility, below %.1f (Big Five %.2f, collaboration %.2f, conflict approach %.2f): review the pairing or their personalities",
					from, to, relation, s.Score, CompatibilityThreshold, s.BigFive, s.Collaboration, s.Conflict)
			}
		}
		for _, id := range model.Sorted(agents) {
			auth := agents[id].Authority
			if auth.ReportsTo != "" {
				check([]string{"agents", id, "authority", "reports_to"}, "reports_to", id, auth.ReportsTo)
			}
			for i, to := range auth.CanDelegateTo {
				check([]string{"agents", id, "authority", "can_delegate_to", index(i)}, "can_delegate_to", id, to)
			}
		}
	},
}
