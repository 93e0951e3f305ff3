package serve

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/artifact/bundlefile"
	"github.com/charter-dev/charter/internal/enforce/decisionlog"
	"github.com/charter-dev/charter/internal/enforce/judge"
	"github.com/charter-dev/charter/internal/release/cardsign"
	"github.com/charter-dev/charter/internal/release/oci"
	"github.com/charter-dev/charter/rules"
)

// loaded is one verified bundle the server judges with. It never
// changes: a reload makes a new one and swaps the pointer, so a decision
// under way finishes on the bundle it started with.
type loaded struct {
	judge    *judge.Judge
	rt       *bundlefile.Runtime
	bundle   decisionlog.Bundle
	source   string
	at       time.Time
	manifest string    // sha256 of manifest.json, to see a change
	built    time.Time // the source commit's time (zero without one)

	agents sync.Map // id -> decisionlog.Agent
}

// agent is the version of agent id the bundle holds.
func (l *loaded) agent(id string) decisionlog.Agent {
	if a, ok := l.agents.Load(id); ok {
		return a.(decisionlog.Agent)
	}
	a := decisionlog.Agent{ID: id}
	if _, b, err := l.rt.Agent(id); err == nil {
		var doc struct {
			Version     int    `json:"version"`
			ContentHash string `json:"content_hash"`
		}
		if json.Unmarshal(b, &doc) == nil {
			a.Version, a.ContentHash = doc.Version, doc.ContentHash
		}
		l.agents.Store(id, a)
	}
	return a
}

func manifestHash(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// load reads and verifies the bundle the options name (through
// cardsign.CheckBundle, the one check) into a loaded.
func (s *Server) load(ctx context.Context) (*loaded, error) {
	var t bundlefile.Tree
	var digest, source string
	switch {
	case s.o.Bundle != "":
		source = s.o.Bundle
		var err error
		if t, err = bundle.ReadDir(s.o.Bundle); err != nil {
			return nil, fmt.Errorf("reading the bundle at %s: %v", s.o.Bundle, err)
		}
	case s.o.Pull != "":
		source = s.o.Pull
		// With a key, the artifact's cosign signature by it too, as
		// charter pull --verify-key requires.
		po := s.o.PullOptions
		if s.o.Key != nil {
			po.VerifyKey = s.o.Key.Key()
		}
		p, err := oci.Pull(ctx, s.o.Pull, po)
		if err != nil {
			return nil, err
		}
		t, digest = p.Tree, p.Digest
	default:
		return nil, fmt.Errorf("no bundle to serve")
	}
	m, err := cardsign.CheckBundle(t, s.o.Key)
	if err != nil {
		return nil, &hinted{fmt.Errorf("the bundle at %s does not verify: %v", source, err), s.verifyHint(err)}
	}
	l := &loaded{source: source, at: time.Now().UTC(), manifest: manifestHash(t["manifest.json"])}
	l.rt = bundlefile.TreeRuntime(t, m, source)
	l.judge = judge.New(judge.Bundle{R: l.rt}, s.o.OnError)
	l.bundle.Digest = digest
	if m.Source != nil {
		l.bundle.Revision = m.Source.Commit
		l.built = m.Source.Time
	}
	return l, nil
}

// rollback says why next may not replace cur under a running server
// with a key: a signed bundle older than the one serving (its commit's
// time), or one built from no commit, is an earlier release put back by
// whoever can write the folder or move the tag but cannot sign, with the
// rules since tightened gone. A restart serves it: the operator's way
// back.
func rollback(cur, next *loaded) error {
	switch {
	case cur.bundle.Revision == "" || next.manifest == cur.manifest:
		return nil
	case next.bundle.Revision == "":
		return fmt.Errorf("the new bundle was built from no commit, and the one serving from commit %s: a running server does not trade a signed bundle for one whose age it cannot tell (restart charter serve to serve it)", cur.bundle.Revision)
	case next.built.Before(cur.built):
		return fmt.Errorf("the new bundle (commit %s of %s) is older than the one serving (commit %s of %s): a running server does not roll a signed bundle back (restart charter serve to serve an older one)",
			next.bundle.Revision, next.built.UTC().Format(time.RFC3339), cur.bundle.Revision, cur.built.UTC().Format(time.RFC3339))
	}
	return nil
}

// Reload loads the bundle again and, when it verifies, swaps it in; a
// bundle that does not verify leaves the one serving in place, and the
// error shows on /health and in the log.
func (s *Server) Reload(ctx context.Context) error { return s.reload(ctx, false) }

// reload is Reload; verbose logs a line even when nothing changed (a
// reload the operator asked for says what it did).
func (s *Server) reload(ctx context.Context, verbose bool) error {
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	lctx, cancel := context.WithTimeout(ctx, s.o.PullTimeout)
	defer cancel()
	l, err := s.load(lctx)
	if cur := s.cur.Load(); err == nil && cur != nil && s.o.Key != nil {
		err = rollback(cur, l)
	}
	if err != nil {
		if s.setError(err) || verbose {
			if s.cur.Load() == nil {
				s.logf("charter serve: no bundle is served: %v; %s", err, s.meanwhile("every call is denied until a bundle verifies"))
			} else {
				s.logf("charter serve: the new bundle is not served (%v); the old one goes on", err)
			}
			s.logHint()
		}
		s.metrics.reload("error")
		return err
	}
	old := s.cur.Swap(l)
	s.setError(nil)
	s.metrics.reload("ok")
	if old == nil || old.manifest != l.manifest || verbose {
		s.logf("charter serve: serving the bundle at %s (revision %s%s)", l.source, orNone(l.bundle.Revision), digestNote(l.bundle.Digest))
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "none: built from a working tree"
	}
	return s
}

func digestNote(d string) string {
	if d == "" {
		return ""
	}
	return ", digest " + d
}

// changed reports whether the bundle directory's manifest differs from
// the one serving (a new bundle was deployed).
func (s *Server) changed() bool {
	if s.o.Bundle == "" {
		return false
	}
	b, err := os.ReadFile(filepath.Join(s.o.Bundle, "manifest.json"))
	if err != nil {
		return s.cur.Load() != nil
	}
	cur := s.cur.Load()
	return cur == nil || cur.manifest != manifestHash(b)
}

// pollTag pulls the bundle again when the Pull tag names another digest
// than the one serving.
func (s *Server) pollTag(ctx context.Context) {
	if s.o.Pull == "" || strings.Contains(s.o.Pull, "@") {
		return
	}
	rctx, cancel := context.WithTimeout(ctx, s.o.PullTimeout)
	d, err := oci.Resolve(rctx, s.o.Pull, s.o.PullOptions)
	cancel()
	if err != nil {
		if s.setError(err) {
			if s.cur.Load() == nil {
				s.logf("charter serve: %s cannot be resolved (%v); no bundle is served, and %s", s.o.Pull, err, s.meanwhile("every call is denied until a bundle verifies"))
			} else {
				s.logf("charter serve: %s cannot be resolved (%v); the bundle serving goes on", s.o.Pull, err)
			}
			s.logHint()
		}
		return
	}
	cur := s.cur.Load()
	if cur == nil || cur.bundle.Digest != d {
		_ = s.Reload(ctx)
		return
	}
	// The tag names the bundle serving: the registry answers again (or
	// the tag came back to it), and what went wrong before is over.
	if s.setError(nil) {
		s.logf("charter serve: %s resolves again (digest %s); the bundle serving goes on", s.o.Pull, d)
	}
}

// hinted is an error with what to do about it.
type hinted struct {
	err  error
	hint string
}

func (h *hinted) Error() string { return h.err.Error() }
func (h *hinted) Unwrap() error { return h.err }

// verifyHint says what to do about a bundle that does not verify.
func (s *Server) verifyHint(err error) string {
	var ve *bundlefile.VerifyError
	switch {
	case err.Error() == cardsign.ErrManifestUnsigned.Error():
		return "sign it with charter build --sign-key FILE (or charter publish --sign-key FILE), or serve it without --key"
	case errors.As(err, &ve):
		return "a file differs from manifest.json: build the bundle again and deploy it whole (charter build --out DIR, or charter pull --out DIR)"
	case s.o.Key != nil:
		return "check that --key is the public key of the key the bundle was signed with (charter verify DIR --key FILE says more)"
	}
	return ""
}

// hintOf says what to do about a load's error, where charter knows.
func (s *Server) hintOf(err error) string {
	var h *hinted
	var se *oci.SignatureError
	var oe *oci.Error
	var nb *oci.NotBundleError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &h):
		return h.hint
	case errors.As(err, &se) && se.Hint != "":
		return se.Hint
	case errors.As(err, &se):
		return "give --key the public key of the key the release was signed with (after a key rotation, see docs/release.md, \"Rotating the signing key\")"
	case errors.As(err, &oe):
		return oe.Hint
	case errors.As(err, &nb):
		return "check the reference: charter publish pushes a bundle to it"
	}
	return ""
}

// meanwhile is what happens to calls while something is wrong: denied,
// or with --fail-open let through unjudged.
func (s *Server) meanwhile(denied string) string {
	if s.o.OnError == rules.OnErrorAllow {
		return "--fail-open lets every call through unjudged meanwhile"
	}
	return denied
}

// logHint logs the hint of the last error, if any.
func (s *Server) logHint() {
	if h := s.lastHintText(); h != "" {
		s.logf("charter serve: hint: %s", h)
	}
}

// Watch reloads the bundle when its directory's manifest.json changes,
// checking every interval, until ctx ends.
func (s *Server) Watch(ctx context.Context, interval time.Duration) {
	if s.o.PullEvery > 0 && s.o.Pull != "" {
		go func() {
			t := time.NewTicker(s.o.PullEvery)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
					s.pollTag(ctx)
				}
			}
		}()
	}
	if interval <= 0 {
		return
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if s.changed() {
				_ = s.Reload(ctx)
			}
			if s.o.IdleSweep {
				if n, _ := s.o.Sessions.Prune(s.o.Idle); n > 0 {
					s.logf("charter serve: %d idle sessions dropped", n)
				}
			}
		}
	}
}
