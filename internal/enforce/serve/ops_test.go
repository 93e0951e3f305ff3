package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/artifact/bundlefile"
	"github.com/charter-dev/charter/internal/enforce/sessions"
	"github.com/charter-dev/charter/internal/release/oci"
	"github.com/charter-dev/charter/internal/testkit/realtool"
	"github.com/charter-dev/charter/internal/testkit/redistest"
	"github.com/charter-dev/charter/internal/testkit/registrytest"
	"github.com/charter-dev/charter/internal/testkit/testrepo"
)

// What an operator reads: the log lines and /health.

// logs collects a server's log lines.
type logs struct {
	mu    sync.Mutex
	lines []string
}

func (l *logs) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *logs) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

type health struct {
	Status    string `json:"status"`
	Ready     bool   `json:"ready"`
	Reason    string `json:"reason"`
	Hint      string `json:"hint"`
	LastError string `json:"last_error"`
}

func getHealth(t *testing.T, url string) (int, health) {
	t.Helper()
	code, b := get(t, url)
	var h health
	if err := json.Unmarshal(b, &h); err != nil {
		t.Fatalf("%s: %v: %s", url, err, b)
	}
	return code, h
}

// An unsigned bundle under --key: the server starts, denies every call,
// and its log and /health say why, what to do, and that every call is
// denied meanwhile.
func TestStartupSaysWhyAndHow(t *testing.T) {
	_, verifier := signingKeys(t)
	var l logs
	_, ts := start(t, Options{Bundle: golden, Key: verifier, Logf: l.logf})
	log := l.String()
	for _, want := range []string{"no bundle is served", "not signed", "every call is denied until a bundle verifies", "hint: sign it with charter build --sign-key"} {
		if !strings.Contains(log, want) {
			t.Errorf("the start-up log lacks %q:\n%s", want, log)
		}
	}
	code, h := getHealth(t, ts.URL+"/health")
	if code != http.StatusOK || h.Ready || h.Status != "not ready" || !strings.Contains(h.Reason, "every call is denied") || !strings.Contains(h.Hint, "charter build --sign-key") {
		t.Errorf("/health = %d %+v, want 200, not ready, the reason and the hint", code, h)
	}
	if code, _ := getHealth(t, ts.URL+"/health?ready"); code != http.StatusServiceUnavailable {
		t.Errorf("/health?ready = %d, want 503", code)
	}
}

// /health watches the session store: Redis down is not ready, with the
// reason, and ready again once Redis answers.
func TestHealthRedisDown(t *testing.T) {
	rd := redistest.Start(t)
	st, err := sessions.OpenRedis(rd.URL, sessions.Limits{}, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	_, ts := start(t, Options{Sessions: st})
	if code, h := getHealth(t, ts.URL+"/health?ready"); code != http.StatusOK || !h.Ready || h.Status != "ok" {
		t.Fatalf("Redis up: /health?ready = %d %+v", code, h)
	}
	rd.Stop()
	// The answer is kept for a second: /health stays cheap.
	code, h := getHealth(t, ts.URL+"/health")
	for deadline := time.Now().Add(3 * time.Second); h.Ready && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
		code, h = getHealth(t, ts.URL+"/health")
	}
	if code != http.StatusOK || h.Ready || h.Status != "not ready" || !strings.Contains(h.Reason, "the session store (Redis) cannot be reached") {
		t.Errorf("Redis down: /health = %d %+v, want 200, not ready, and why", code, h)
	}
	if code, _ := getHealth(t, ts.URL+"/health?ready"); code != http.StatusServiceUnavailable {
		t.Errorf("Redis down: /health?ready = %d, want 503", code)
	}
}

func startRegistry(t *testing.T) *registrytest.Registry {
	t.Helper()
	realtool.Need(t, "docker-registry", "docker-registry")
	realtool.Need(t, "htpasswd", "apache2-utils")
	r, err := registrytest.Start(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Stop)
	t.Setenv("DOCKER_CONFIG", t.TempDir())
	t.Setenv(oci.EnvUsername, registrytest.User)
	t.Setenv(oci.EnvPassword, registrytest.Password)
	return r
}

func publishUnsigned(t *testing.T, ref string) {
	t.Helper()
	src := &bundlefile.Source{Commit: strings.Repeat("c", 40), Time: time.Unix(1700000000, 0).UTC()}
	tree, err := bundle.Build(testrepo.Compile(t, testrepo.FS(testrepo.DelegationTeam)), bundle.Options{Source: src})
	if err != nil {
		t.Fatal(err)
	}
	ar, err := bundle.Archive(tree, bundle.SourceEpoch(src))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := oci.Publish(context.Background(), ref, tree, ar, oci.Meta{Revision: src.Commit, Created: src.Time}, oci.Options{PlainHTTP: true}); err != nil {
		t.Fatal(err)
	}
}

// A plain-HTTP registry pulled without plain HTTP: the log carries the
// hint (pass --plain-http), and nothing of pull's "nothing was written".
func TestPullPlainHTTPHint(t *testing.T) {
	r := startRegistry(t)
	ref := r.Host + "/agents/team:prod"
	publishUnsigned(t, ref)
	var l logs
	_, ts := start(t, Options{Pull: ref, PullOptions: oci.Options{HTTPClient: &http.Client{}}, Logf: l.logf})
	log := l.String()
	for _, want := range []string{"plain HTTP", "every call is denied until a bundle verifies", "hint: for a registry on this machine, pass --plain-http"} {
		if !strings.Contains(log, want) {
			t.Errorf("the start-up log lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, "nothing was written") {
		t.Errorf("the start-up log speaks of writing:\n%s", log)
	}
	if _, h := getHealth(t, ts.URL+"/health"); h.Ready || !strings.Contains(h.Hint, "--plain-http") {
		t.Errorf("/health = %+v, want not ready with the hint", h)
	}
}

// A registry that went away and came back: the next check of the tag
// clears /health's last_error, though the tag did not move.
func TestPullTagErrorClears(t *testing.T) {
	r := startRegistry(t)
	ref := r.Host + "/agents/team:prod"
	publishUnsigned(t, ref)
	var l logs
	s, ts := start(t, Options{Pull: ref, PullOptions: oci.Options{PlainHTTP: true, HTTPClient: &http.Client{}}, Logf: l.logf})
	ctx := context.Background()
	r.Stop()
	s.pollTag(ctx)
	if _, h := getHealth(t, ts.URL+"/health"); !strings.Contains(h.LastError, "cannot connect") {
		t.Fatalf("registry down: /health = %+v, want last_error cannot connect", h)
	}
	if err := r.Restart(); err != nil {
		t.Fatal(err)
	}
	s.pollTag(ctx)
	if _, h := getHealth(t, ts.URL+"/health"); h.LastError != "" || !h.Ready {
		t.Errorf("registry back: /health = %+v, want ready and no last_error", h)
	}
	if log := l.String(); !strings.Contains(log, "resolves again") {
		t.Errorf("the log does not say the registry answers again:\n%s", log)
	}
}

// TestPullStalledRegistry: a registry that takes the connection and never
// answers held the start-up (New), and later the pull loop, forever: the
// server never listened, or /health went on saying the old tag was fine
// and SIGHUP waited on the stuck reload. Each pull and each check of the
// tag is bounded by PullTimeout now.
func TestPullStalledRegistry(t *testing.T) {
	stall := make(chan struct{})
	reg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-stall }))
	defer reg.Close()
	defer close(stall)
	ref := strings.TrimPrefix(reg.URL, "http://") + "/agents/team:prod"
	done := make(chan *Server, 1)
	go func() {
		done <- New(context.Background(), Options{Pull: ref, PullTimeout: 100 * time.Millisecond,
			PullOptions: oci.Options{PlainHTTP: true, HTTPClient: &http.Client{}}})
	}()
	var s *Server
	select {
	case s = <-done:
	case <-time.After(time.Minute):
		t.Fatal("New waits on a registry that does not answer")
	}
	if msg, _ := s.lastError(); msg == "" {
		t.Errorf("no last error after a pull that timed out")
	}
	polled := make(chan struct{})
	go func() { s.pollTag(context.Background()); close(polled) }()
	select {
	case <-polled:
	case <-time.After(time.Minute):
		t.Fatal("pollTag waits on a registry that does not answer")
	}
}
