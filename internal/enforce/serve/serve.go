// Package serve is charter serve: one decision point over HTTP that any
// agent runtime can ask before and after each tool call. It judges with
// the engines charter eval and the Claude Code hook use (package judge),
// over a verified bundle it swaps atomically on reload, keeps sessions
// in a sessions.Store, and logs each decision (package decisionlog).
//
// Endpoints: POST /v1/decide (charter's own API), POST
// /v1/hooks/claude-code (Claude Code's HTTP hook), POST
// /access/v1/evaluation and /access/v1/evaluations with GET
// /.well-known/authzen-configuration (AuthZEN 1.0), GET /health, GET
// /metrics. docs/serve.md is the reference.
package serve

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/charter-dev/charter/internal/enforce/decisionlog"
	"github.com/charter-dev/charter/internal/enforce/sessions"
	"github.com/charter-dev/charter/internal/release/cardsign"
	"github.com/charter-dev/charter/internal/release/oci"
	"github.com/charter-dev/charter/rules"
)

// Options configure a Server.
type Options struct {
	// Bundle is a bundle directory to serve; Pull an OCI reference
	// (pulled and verified as charter pull does). One of them.
	Bundle      string
	Pull        string
	PullOptions oci.Options
	// PullEvery is how often a Pull tag is resolved again, and pulled
	// when it names a new digest (0: only on SIGHUP).
	PullEvery time.Duration
	// PullTimeout bounds each pull, and each check of the Pull tag: a
	// registry that takes the connection and never answers must not
	// hold the start-up, the pull loop or a reload (0: DefaultPullTimeout).
	PullTimeout time.Duration
	// Key, when set, is the public key that must have signed the bundle:
	// its manifest.json (manifest.jws), every agent card and, with Pull,
	// the OCI artifact (cosign's signature), as charter pull
	// --verify-key requires.
	Key *cardsign.Verifier
	// Sessions keeps the sessions; Idle is how long one is kept without a
	// call, and IdleSweep says the server drops idle ones itself (a
	// memory store; Redis expires them).
	Sessions  sessions.Store
	Idle      time.Duration
	IdleSweep bool
	// Log, when set, gets a record of every decision.
	Log *decisionlog.Log
	// OnError is what a call gets that cannot be judged: deny unless the
	// operator chose rules.OnErrorAllow (--fail-open).
	OnError rules.OnError
	// MaxBody bounds a request's body.
	MaxBody int64
	// Token, when set, is the bearer token every request but /health
	// must carry.
	Token string
	// PublicURL is the base URL AuthZEN's discovery document names; by
	// default the one the request came to.
	PublicURL string
	// Logf writes the server's own log lines (to stderr).
	Logf func(format string, args ...any)
}

// Server answers decisions over HTTP.
type Server struct {
	o        Options
	cur      atomic.Pointer[loaded]
	reloadMu sync.Mutex
	metrics  *metrics

	errMu    sync.Mutex
	lastErr  string
	lastHint string
	errAt    time.Time

	storeMu  sync.Mutex
	storeErr error
	storeAt  time.Time
}

// DefaultPullTimeout is how long a pull, or a check of the Pull tag,
// may take unless told.
const DefaultPullTimeout = 2 * time.Minute

// DefaultMaxBody is the largest request body a server reads unless told.
const DefaultMaxBody = 8 << 20

// New returns a server over the options' bundle, loaded once; a bundle
// that does not load leaves the server up, denying every call with the
// reason (fail closed) until a reload succeeds.
func New(ctx context.Context, o Options) *Server {
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxBody
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	if o.PullTimeout <= 0 {
		o.PullTimeout = DefaultPullTimeout
	}
	if o.Sessions == nil {
		o.Sessions = sessions.NewMemory(sessions.Limits{Idle: o.Idle})
	}
	s := &Server{o: o}
	s.metrics = newMetrics(o.Sessions)
	_ = s.Reload(ctx)
	return s
}

func (s *Server) logf(format string, args ...any) { s.o.Logf(format, args...) }

// setError records the last reload's error (nil: it worked); true when
// it differs from the one before.
func (s *Server) setError(err error) bool {
	s.errMu.Lock()
	defer s.errMu.Unlock()
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	changed := msg != s.lastErr
	s.lastErr, s.lastHint, s.errAt = msg, s.hintOf(err), time.Now().UTC()
	return changed
}

func (s *Server) lastHintText() string {
	s.errMu.Lock()
	defer s.errMu.Unlock()
	return s.lastHint
}

// pinger is a session store that can say whether it answers (Redis).
type pinger interface {
	Ping(ctx context.Context) error
}

// storeError is why the session store cannot be reached, nil when it
// answers: a PING of at most 0.5 s, its answer kept for a second, so
// that /health, which needs no token, stays cheap however often it is
// asked.
func (s *Server) storeError() error {
	p, ok := s.o.Sessions.(pinger)
	if !ok {
		return nil
	}
	s.storeMu.Lock()
	defer s.storeMu.Unlock()
	if !s.storeAt.IsZero() && time.Since(s.storeAt) < time.Second {
		return s.storeErr
	}
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	s.storeErr, s.storeAt = p.Ping(ctx), time.Now()
	return s.storeErr
}

func (s *Server) lastError() (string, time.Time) {
	s.errMu.Lock()
	defer s.errMu.Unlock()
	return s.lastErr, s.errAt
}

// Handler returns the server's HTTP handler.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/decide", s.handleDecide)
	mux.HandleFunc("POST /v1/hooks/claude-code", s.handleClaudeCode)
	mux.HandleFunc("POST /access/v1/evaluation", s.handleEvaluation)
	mux.HandleFunc("POST /access/v1/evaluations", s.handleEvaluations)
	mux.HandleFunc("GET /.well-known/authzen-configuration", s.handleDiscovery)
	mux.HandleFunc("GET /health", s.handleHealth)
	mux.Handle("GET /metrics", s.metrics.handler())
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			// An internal error is no decision: a 500, which every client
			// of charter treats as deny (Claude Code with "onFailure":
			// "block" blocks the call).
			if v := recover(); v != nil {
				s.logf("charter serve: internal error on %s: %v", r.URL.Path, v)
				httpError(w, http.StatusInternalServerError, fmt.Sprintf("charter could not judge this call: internal error: %v", v))
			}
		}()
		if r.URL.Path != "/health" && s.o.Token != "" && !s.authorized(r) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="charter"`)
			httpError(w, http.StatusUnauthorized, "a bearer token is required (Authorization: Bearer TOKEN, the token of --token-file)")
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, s.o.MaxBody)
		mux.ServeHTTP(w, r)
	})
}

func (s *Server) authorized(r *http.Request) bool {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && subtle.ConstantTimeCompare([]byte(got), []byte(s.o.Token)) == 1
}

func newID() string {
	var b [16]byte
	var h [32]byte
	_, _ = rand.Read(b[:])
	hex.Encode(h[:], b[:])
	return string(h[:])
}

// failure is the verdict on a call charter cannot judge: deny with the
// reason, or with OnErrorAllow allow with it in a note.
func (s *Server) failure(phase rules.Phase, why string) rules.Verdict {
	if s.o.OnError == rules.OnErrorAllow {
		return rules.Verdict{Phase: phase, Decision: rules.Allowed,
			Notes: []string{"charter could not judge this call (" + why + "); --fail-open lets it through"}}
	}
	return rules.Verdict{Phase: phase, Decision: rules.Blocked,
		Fired: []rules.Firing{{Rule: rules.FailClosedRule, Action: rules.Block, Message: "charter could not judge this call, so it is denied: " + why}}}
}

// current is the bundle serving, or why there is none.
func (s *Server) current() (*loaded, string) {
	if l := s.cur.Load(); l != nil {
		return l, ""
	}
	msg, _ := s.lastError()
	if msg == "" {
		msg = "no bundle is loaded"
	}
	return nil, "no bundle is loaded (" + msg + ")"
}

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	l := s.cur.Load()
	msg, at := s.lastError()
	type bundleStatus struct {
		Source   string    `json:"source"`
		Revision string    `json:"revision,omitempty"`
		Digest   string    `json:"digest,omitempty"`
		LoadedAt time.Time `json:"loaded_at"`
	}
	out := struct {
		Status    string        `json:"status"`
		Ready     bool          `json:"ready"`
		Reason    string        `json:"reason,omitempty"`
		Hint      string        `json:"hint,omitempty"`
		Bundle    *bundleStatus `json:"bundle,omitempty"`
		LastError string        `json:"last_error,omitempty"`
		ErrorAt   *time.Time    `json:"last_error_at,omitempty"`
		Sessions  int           `json:"sessions"`
	}{Status: "ok", Ready: true, LastError: msg, Sessions: s.o.Sessions.Count()}
	if msg != "" {
		out.ErrorAt = &at
	}
	if l != nil {
		out.Bundle = &bundleStatus{l.source, l.bundle.Revision, l.bundle.Digest, l.at}
	} else {
		_, why := s.current()
		out.Ready, out.Reason, out.Hint = false, why+"; "+s.meanwhile("every call is denied until a bundle verifies"), s.lastHintText()
	}
	if err := s.storeError(); err != nil && out.Ready {
		out.Ready, out.Reason, out.Hint = false, err.Error()+"; "+s.meanwhile("every call that needs a session is denied"), "start Redis, or check the address --sessions names"
	}
	code := http.StatusOK
	if !out.Ready {
		out.Status = "not ready"
		if _, ready := r.URL.Query()["ready"]; ready {
			code = http.StatusServiceUnavailable
		}
	}
	writeJSON(w, code, out)
}

// Err404 and friends keep error bodies plain: a message, as AuthZEN wants.
func httpError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, map[string]string{"error": msg})
}

func (s *Server) record(r decisionlog.Record) {
	if s.o.Log == nil {
		return
	}
	if err := s.o.Log.Write(r); err != nil {
		s.logf("charter serve: %v", err)
	}
}

func ruleList(v rules.Verdict) []decisionlog.Rule {
	out := make([]decisionlog.Rule, 0, len(v.Fired))
	for _, f := range v.Fired {
		out = append(out, decisionlog.Rule{Rule: f.Rule, Action: string(f.Action), Message: f.Message})
	}
	return out
}

// decisionWord is the API's word for the engine's decision.
func decisionWord(d rules.Decision) string {
	switch d {
	case rules.Allowed:
		return "allow"
	case rules.Asked:
		return "ask"
	}
	return "deny"
}
