package serve

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/charter-dev/charter/internal/enforce/sessions"
	"github.com/charter-dev/charter/internal/testkit/redistest"
	"github.com/charter-dev/charter/rules"
)

// A reload under load: every request answered, none by fail_closed, and
// the new bundle serving after.
func TestReloadDuringLoad(t *testing.T) {
	dir := copyBundle(t, golden)
	s, ts := start(t, Options{Bundle: dir})
	var failed atomic.Int64
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				body := `{"agent":"marco","session":"w` + string(rune('0'+w)) + `","phase":"pre","tool":"run_bash","input":{"command":"python x.py"}}`
				code, b := post(t, ts.URL+"/v1/decide", body)
				var r DecideResponse
				json.Unmarshal(b, &r)
				if code != 200 || r.Decision == "deny" {
					failed.Add(1)
					t.Errorf("under reload: %d %s", code, b)
				}
			}
		}()
	}
	for range 20 {
		if err := s.Reload(context.Background()); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	if failed.Load() > 0 {
		t.Errorf("%d requests failed during reloads", failed.Load())
	}
}

// A bad new bundle keeps the old one serving, and shows on /health.
func TestBadReloadKeepsOld(t *testing.T) {
	dir := copyBundle(t, golden)
	s, ts := start(t, Options{Bundle: dir})
	os.WriteFile(filepath.Join(dir, "team.json"), []byte("{}"), 0o644)
	if err := s.Reload(context.Background()); err == nil {
		t.Fatal("a bundle that does not verify was loaded")
	}
	r := decide(t, ts.URL, `{"agent":"marco","session":"s","phase":"pre","tool":"run_bash","input":{"command":"python x.py"}}`)
	if r.Decision != "allow" {
		t.Errorf("the old bundle stopped serving: %+v", r)
	}
	_, b := get(t, ts.URL+"/health")
	var h struct {
		Ready     bool   `json:"ready"`
		LastError string `json:"last_error"`
	}
	json.Unmarshal(b, &h)
	if !h.Ready || !strings.Contains(h.LastError, "team.json") {
		t.Errorf("/health: %s", b)
	}
}

// The watch picks up a new bundle written into the directory.
func TestWatchReloads(t *testing.T) {
	dir := copyBundle(t, golden)
	s, _ := start(t, Options{Bundle: dir})
	first := s.cur.Load()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Watch(ctx, 10*time.Millisecond)
	// A new build: same files, manifest.json rewritten (a new source).
	m, _ := os.ReadFile(filepath.Join(dir, "manifest.json"))
	var doc map[string]any
	json.Unmarshal(m, &doc)
	doc["source"] = map[string]any{"commit": strings.Repeat("a", 40), "tree": strings.Repeat("b", 40), "time": "2026-01-01T00:00:00Z"}
	nb, _ := json.Marshal(doc)
	os.WriteFile(filepath.Join(dir, "manifest.json"), nb, 0o644)
	deadline := time.Now().Add(5 * time.Second)
	for s.cur.Load() == first {
		if time.Now().After(deadline) {
			t.Fatal("the new bundle was not loaded")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if rev := s.cur.Load().bundle.Revision; rev != strings.Repeat("a", 40) {
		t.Errorf("revision %q", rev)
	}
}

// Two servers on one Redis, the calls of one session alternating between
// them, give the verdicts one server gives; a restart keeps the session;
// Redis down denies with the reason.
func TestRedisReplicas(t *testing.T) {
	rd := redistest.Start(t)
	open := func() sessions.Store {
		st, err := sessions.OpenRedis(rd.URL, sessions.Limits{}, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	_, a := start(t, Options{Sessions: open()})
	_, b := start(t, Options{Sessions: open()})
	_, one := start(t, Options{})
	seq := replaySequence()
	for i, c := range seq {
		url := a.URL
		if i%2 == 1 {
			url = b.URL
		}
		got := decide(t, url, c)
		want := decide(t, one.URL, c)
		if got.Decision != want.Decision || strings.Join(ruleIDs(got.Rules), ",") != strings.Join(ruleIDs(want.Rules), ",") {
			t.Errorf("call %d %s: replicas %s %v, one server %s %v", i, c, got.Decision, ruleIDs(got.Rules), want.Decision, ruleIDs(want.Rules))
		}
	}
	// A third server (a restart) sees the session.
	st := open()
	sess, err := st.View(rules.AgentKey("r1", "marco"))
	if err != nil || sess.Len() == 0 {
		t.Errorf("the session did not outlive its servers: %v, %d calls", err, sess.Len())
	}
	rd.Stop()
	r := decide(t, a.URL, seq[0])
	if r.Decision != "deny" || !strings.Contains(r.Rules[0].Message, "Redis") {
		t.Errorf("Redis down: %+v", r)
	}
}

// replaySequence is a session of marco's calls on which rules fire: a
// repeat (warn), a program off the whitelist (the gate), ten reads
// (remind).
func replaySequence() []string {
	var out []string
	add := func(phase, tool, input string) {
		body := `{"agent":"marco","session":"r1","phase":"` + phase + `","tool":"` + tool + `","input":` + input
		if phase == "post" {
			body += `,"result":"ok"`
		}
		out = append(out, body+`}`)
	}
	call := func(tool, input string) { add("pre", tool, input); add("post", tool, input) }
	for range 3 {
		call("run_bash", `{"command":"python x.py"}`)
	}
	add("pre", "run_bash", `{"command":"cat x.py"}`)
	for i := range 11 {
		call("read_file", `{"path":"f`+string(rune('a'+i))+`.py"}`)
	}
	add("pre", "run_bash", `{"command":"sudo python x.py"}`)
	return out
}
