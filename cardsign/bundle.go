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

// VerifyCards checks every agents/<id>/card.json of t, in path order.
func (v *Verifier) VerifyCards(t bundle.Tree) []CardResult {
	var out []CardResult
	for _, p := range t.Paths() {
		rest, ok := strings.CutPrefix(p, "agents/")
		if !ok {
			continue
		}
		id, file, ok := strings.Cut(rest, "/")
		if !ok || file != "card.json" {
			continue
		}
		r := CardResult{Agent: id, Path: p}
		if err := v.Verify(t[p]); err != nil {
			r.Error = err.Error()
		}
		out = append(out, r)
	}
	return out
}
