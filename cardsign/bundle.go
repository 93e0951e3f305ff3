package cardsign

import (
	"strings"

	"github.com/charter-dev/charter/bundle"
)

// CardResult is the verdict on one card of a bundle.
type CardResult struct {
	Agent string `json:"agent"`
	Path  string `json:"path"`
	// Error says why the card does not verify; empty when it does.
	Error string `json:"error,omitempty"`
}

// VerifyCards checks the agents/<id>/card.json of every agent of t (every
// folder under agents/), in path order. An agent without a card does not
// verify: its prompt and agent.json would go unvouched for.
func (v *Verifier) VerifyCards(t bundle.Tree) []CardResult {
	var out []CardResult
	seen := map[string]bool{}
	for _, p := range t.Paths() {
		rest, ok := strings.CutPrefix(p, "agents/")
		if !ok {
			continue
		}
		id, _, ok := strings.Cut(rest, "/")
		if !ok || seen[id] {
			continue
		}
		seen[id] = true
		r := CardResult{Agent: id, Path: "agents/" + id + "/card.json"}
		if card, ok := t[r.Path]; !ok {
			r.Error = "the agent has no card.json, so no signature vouches for it"
		} else if err := v.Verify(card); err != nil {
			r.Error = err.Error()
		}
		out = append(out, r)
	}
	return out
}
