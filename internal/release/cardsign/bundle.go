package cardsign

import (
	"errors"
	"fmt"
	"strings"

	"github.com/charter-dev/charter/internal/artifact/bundlefile"
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
func (v *Verifier) VerifyCards(t bundlefile.Tree) []CardResult {
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

// CheckBundle is VerifyBundle for a program that deploys or serves a
// bundle: with a verifier, nil only when the whole bundle verifies (Check);
// without one, the files against manifest.json alone. It returns the
// manifest.
func CheckBundle(t bundlefile.Tree, v *Verifier) (*bundlefile.Manifest, error) {
	if v == nil {
		return bundlefile.Verify(t)
	}
	r, err := v.Check(t)
	if err != nil {
		return nil, err
	}
	return r.manifest, nil
}

// BundleReport is the verdict on a whole bundle: its files against
// manifest.json, and every agent's card against the key. Its JSON is what
// `charter verify --format json` prints.
type BundleReport struct {
	// The fields in the order of their JSON names, as verify has always
	// printed them.
	Cards []CardResult `json:"cards"`
	Files int          `json:"files"`
	KeyID string       `json:"key_id"`
	// ManifestProblems are the files that differ from manifest.json.
	ManifestProblems []string `json:"manifest_problems"`
	// ManifestSignature is "verified", or why manifest.jws does not
	// verify.
	ManifestSignature string `json:"manifest_signature"`
	OK                bool   `json:"ok"`
	// BadCards counts the cards that do not verify.
	BadCards int `json:"-"`
	// manifest is manifest.json, read when the files match it.
	manifest *bundlefile.Manifest
}

// Verified is BundleReport.ManifestSignature for a signature that
// verifies.
const Verified = "verified"

// VerifyBundle is THE check of a bundle, which verify, pull and the
// decision server (charter serve) call before they trust one: every file
// against manifest.json (bundlefile.Verify: sizes and SHA-256, nothing
// missing, nothing added), manifest.json against its signature
// manifest.jws (VerifyManifest), and every agent's card against its
// A2A signature, all by v's key. An error is a bundle that cannot be
// checked at all (no manifest, a newer layout); what does not verify is
// in the report, and OK is set only when everything does.
func (v *Verifier) VerifyBundle(t bundlefile.Tree) (*BundleReport, error) {
	r := &BundleReport{KeyID: v.KeyID(), Files: len(t), ManifestProblems: []string{}, Cards: []CardResult{}}
	m, err := bundlefile.Verify(t)
	r.manifest = m
	var verr *bundlefile.VerifyError
	switch {
	case errors.As(err, &verr):
		r.ManifestProblems = append(r.ManifestProblems, verr.Problems...)
	case err != nil:
		return nil, err
	}
	r.ManifestSignature = Verified
	if err := v.VerifyManifest(t["manifest.json"], t[bundlefile.SignatureFile]); err != nil {
		r.ManifestSignature = err.Error()
	}
	r.Cards = append(r.Cards, v.VerifyCards(t)...)
	for _, c := range r.Cards {
		if c.Error != "" {
			r.BadCards++
		}
	}
	r.OK = len(r.ManifestProblems) == 0 && r.ManifestSignature == Verified && r.BadCards == 0
	return r, nil
}

// Check is VerifyBundle as one error: nil only when the whole bundle
// verifies; otherwise the first thing that does not.
func (v *Verifier) Check(t bundlefile.Tree) (*BundleReport, error) {
	r, err := v.VerifyBundle(t)
	if err != nil {
		return nil, err
	}
	switch {
	case len(r.ManifestProblems) > 0:
		return r, &bundlefile.VerifyError{Problems: r.ManifestProblems}
	case r.ManifestSignature != Verified:
		return r, errors.New(r.ManifestSignature)
	}
	for _, c := range r.Cards {
		if c.Error != "" {
			return r, fmt.Errorf("%s: %s", c.Path, c.Error)
		}
	}
	return r, nil
}

// VerifyRuntime checks the manifest of a bundle a runtime reads file by
// file (bundlefile.OpenRuntime) against its signature: the runtime then checks
// every file it reads against that manifest, so the whole bundle is the
// signed one without hashing all of it for each call.
func (v *Verifier) VerifyRuntime(r *bundlefile.Runtime) error {
	manifest, sig, err := r.Manifest()
	if err != nil {
		return err
	}
	return v.VerifyManifest(manifest, sig)
}
