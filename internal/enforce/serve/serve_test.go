package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/enforce/sessions"
	"github.com/charter-dev/charter/rules"
)

// golden is a built bundle (the dev-team example's) that verifies.
const golden = "../../artifact/bundle/testdata/golden/dev-team"

func start(t testing.TB, o Options) (*Server, *httptest.Server) {
	t.Helper()
	if o.Bundle == "" && o.Pull == "" {
		o.Bundle = golden
	}
	s := New(context.Background(), o)
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return s, ts
}

func post(t testing.TB, url, body string, header ...string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

func decide(t testing.TB, url, body string) DecideResponse {
	t.Helper()
	code, b := post(t, url+"/v1/decide", body)
	if code != 200 {
		t.Fatalf("POST /v1/decide %s: %d %s", body, code, b)
	}
	var r DecideResponse
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func ruleIDs(rs []Rule) []string {
	out := []string{}
	for _, r := range rs {
		out = append(out, r.Rule+":"+r.Action)
	}
	return out
}

func TestDecide(t *testing.T) {
	_, ts := start(t, Options{})
	r := decide(t, ts.URL, `{"agent":"marco","session":"s1","phase":"pre","tool":"run_bash","input":{"command":"rm -rf build"}}`)
	if r.Decision != "deny" || !cmp.Equal(ruleIDs(r.Rules), []string{"permissions:block"}) {
		t.Errorf("rm -rf: %+v", r)
	}
	if r.Agent.ID != "marco" || len(r.Agent.ContentHash) != 64 || r.DecisionID == "" {
		t.Errorf("the decision does not name the agent's version: %+v", r)
	}
	r = decide(t, ts.URL, `{"agent":"marco","session":"s1","phase":"pre","tool":"run_bash","input":{"command":"python -m pytest"}}`)
	if r.Decision != "allow" {
		t.Errorf("python: %+v", r)
	}
}

func TestDecideBadInput(t *testing.T) {
	_, ts := start(t, Options{MaxBody: 4096})
	for _, c := range []struct{ name, body, want string }{
		{"malformed", `{"agent":`, "not the JSON"},
		{"empty", ``, "empty"},
		{"unknown field", `{"agent":"marco","session":"s","phase":"pre","tool":"run_bash","bogus":1}`, `unknown field "bogus"`},
		{"unknown phase", `{"agent":"marco","session":"s","phase":"during","tool":"run_bash"}`, `phase "during"`},
		{"slash", `{"agent":"marco","session":"a/b","phase":"pre","tool":"run_bash"}`, "session id"},
		{"dotdot", `{"agent":"marco","session":"a..b","phase":"pre","tool":"run_bash"}`, "session id"},
		{"no tool", `{"agent":"marco","session":"s","phase":"pre"}`, "tool is missing"},
		{"no session", `{"agent":"marco","phase":"pre","tool":"run_bash"}`, "session is missing"},
		{"two values", `{"agent":"marco","session":"s","phase":"pre","tool":"run_bash"} {}`, "more than one"},
	} {
		code, b := post(t, ts.URL+"/v1/decide", c.body)
		var e struct{ Error string }
		json.Unmarshal(b, &e)
		if code != 400 || !strings.Contains(e.Error, c.want) {
			t.Errorf("%s: %d %s, want 400 with %q", c.name, code, b, c.want)
		}
	}
	big := `{"agent":"marco","session":"s","phase":"pre","tool":"run_bash","input":{"command":"` + strings.Repeat("x", 5000) + `"}}`
	if code, b := post(t, ts.URL+"/v1/decide", big); code != 413 {
		t.Errorf("a body over the limit: %d %s, want 413", code, b)
	}
	// An unknown agent is a call charter cannot judge: denied, with why.
	r := decide(t, ts.URL, `{"agent":"nobody","session":"s","phase":"pre","tool":"run_bash"}`)
	if r.Decision != "deny" || len(r.Rules) != 1 || r.Rules[0].Rule != rules.FailClosedRule || !strings.Contains(r.Rules[0].Message, `no agent "nobody"`) {
		t.Errorf("unknown agent: %+v", r)
	}
}

func TestFailClosed(t *testing.T) {
	var logged []string
	_, ts := start(t, Options{Bundle: filepath.Join(t.TempDir(), "missing"), Logf: func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }})
	// At start there is no old bundle to go on with: the log says what is.
	if len(logged) == 0 || !strings.Contains(logged[0], "no bundle is served") || strings.Contains(logged[0], "old one") {
		t.Errorf("log at start %q: want that no bundle is served", logged)
	}
	r := decide(t, ts.URL, `{"agent":"marco","session":"s","phase":"pre","tool":"run_bash","input":{"command":"python"}}`)
	if r.Decision != "deny" || !strings.Contains(r.Rules[0].Message, "no bundle is loaded") {
		t.Errorf("no bundle: %+v", r)
	}
	resp, err := http.Get(ts.URL + "/health?ready")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 503 {
		t.Errorf("readiness without a bundle: %d, want 503", resp.StatusCode)
	}
	_, open := start(t, Options{Bundle: filepath.Join(t.TempDir(), "missing"), OnError: rules.OnErrorAllow})
	r = decide(t, open.URL, `{"agent":"marco","session":"s","phase":"pre","tool":"run_bash"}`)
	if r.Decision != "allow" || len(r.Notes) == 0 || !strings.Contains(r.Notes[0], "--fail-open") {
		t.Errorf("--fail-open: %+v", r)
	}
}

// A bundle whose file was changed after the build is not served.
func TestTamperedBundle(t *testing.T) {
	dir := copyBundle(t, golden)
	p := filepath.Join(dir, "agents", "marco", "agent.json")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, bytes.Replace(b, []byte(`"python"`), []byte(`"rm"`), 1), 0o644)
	_, ts := start(t, Options{Bundle: dir})
	r := decide(t, ts.URL, `{"agent":"marco","session":"s","phase":"pre","tool":"run_bash","input":{"command":"rm x"}}`)
	if r.Decision != "deny" || !strings.Contains(r.Rules[0].Message, "does not match its manifest") {
		t.Errorf("tampered bundle: %+v", r)
	}
}

func copyBundle(t testing.TB, from string) string {
	t.Helper()
	dir := t.TempDir()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// 100 calls at once on one session: every one recorded, none lost.
func TestConcurrentSession(t *testing.T) {
	st := sessions.NewMemory(sessions.Limits{})
	_, ts := start(t, Options{Sessions: st})
	var wg sync.WaitGroup
	for i := range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := `{"agent":"marco","session":"hot","phase":"post","tool":"read_file","input":{"path":"f` + string(rune('a'+i%26)) + `.py"},"result":"ok"}`
			if code, b := post(t, ts.URL+"/v1/decide", body); code != 200 {
				t.Errorf("%d %s", code, b)
			}
		}()
	}
	wg.Wait()
	s, err := st.View(rules.AgentKey("hot", "marco"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 100 {
		t.Errorf("the session holds %d calls, want 100", s.Len())
	}
}

func TestStatelessHistory(t *testing.T) {
	_, ts := start(t, Options{})
	// Ten reads before: delegate_large_reads reminds after the next.
	var h []string
	for i := range 10 {
		h = append(h, `{"tool":"read_file","input":{"path":"f`+string(rune('0'+i))+`.py"},"result":"x"}`)
	}
	r := decide(t, ts.URL, `{"agent":"marco","phase":"post","tool":"read_file","input":{"path":"g.py"},"result":"x","history":[`+strings.Join(h, ",")+`]}`)
	if !cmp.Equal(ruleIDs(r.Rules), []string{"delegate_large_reads:remind"}) || len(r.Reminders) != 1 {
		t.Errorf("stateless post: %+v", r)
	}
}

func TestToken(t *testing.T) {
	_, ts := start(t, Options{Token: "0123456789abcdef0123"})
	body := `{"agent":"marco","session":"s","phase":"pre","tool":"run_bash"}`
	if code, _ := post(t, ts.URL+"/v1/decide", body); code != 401 {
		t.Errorf("no token: %d, want 401", code)
	}
	if code, _ := post(t, ts.URL+"/v1/decide", body, "Authorization", "Bearer wrong"); code != 401 {
		t.Errorf("a wrong token: %d, want 401", code)
	}
	if code, b := post(t, ts.URL+"/v1/decide", body, "Authorization", "Bearer 0123456789abcdef0123"); code != 200 {
		t.Errorf("the token: %d %s", code, b)
	}
	resp, err := http.Get(ts.URL + "/health")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("/health needs no token: %d", resp.StatusCode)
	}
}

func TestCheckExposure(t *testing.T) {
	for _, c := range []struct {
		addr          string
		token, ca, ok bool
	}{
		{"127.0.0.1:8181", false, false, true},
		{"[::1]:8181", false, false, true},
		{"localhost:8181", false, false, true},
		{"0.0.0.0:8181", false, false, false},
		{":8181", false, false, false},
		{"0.0.0.0:8181", true, false, true},
		{"10.0.0.1:8181", false, true, true},
	} {
		err := CheckExposure(c.addr, c.token, c.ca)
		if (err == nil) != c.ok {
			t.Errorf("CheckExposure(%s, %v, %v) = %v", c.addr, c.token, c.ca, err)
		}
	}
}

func TestMetrics(t *testing.T) {
	_, ts := start(t, Options{})
	decide(t, ts.URL, `{"agent":"marco","session":"s1","phase":"pre","tool":"run_bash","input":{"command":"rm -rf build"}}`)
	resp, err := http.Get(ts.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{
		`charter_decisions_total{decision="deny",endpoint="decide"} 1`,
		`charter_bundle_reloads_total{result="ok"} 1`,
		`charter_decision_seconds_count{endpoint="decide"} 1`,
		`charter_sessions 1`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("/metrics lacks %s:\n%s", want, b)
		}
	}
}

func get(t testing.TB, url string) (int, []byte) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

func stringsReader(s string) io.Reader { return strings.NewReader(s) }
