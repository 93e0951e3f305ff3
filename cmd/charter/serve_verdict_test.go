package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/enforce/serve"
	"github.com/charter-dev/charter/rules"
)

const goldenBundle = "../../internal/artifact/bundle/testdata/golden/dev-team"

// outcome is what one front end said of one call: the decision and the
// rules that fired.
type outcome struct {
	Decision string
	Rules    []string
}

var hookRule = regexp.MustCompile(`\(charter rule (\w+)\)`)

// TestOneVerdict replays one session through charter serve's
// /v1/decide, charter eval (with the session in a file), the Claude Code
// hook (charter eval --protocol claude-code) and serve's HTTP hook: for
// every call, the same decision and the same fired rules.
func TestOneVerdict(t *testing.T) {
	b, err := filepath.Abs(goldenBundle)
	if err != nil {
		t.Fatal(err)
	}
	s := serve.New(context.Background(), serve.Options{Bundle: b})
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	dir := t.TempDir()
	sessionFile := filepath.Join(dir, "session.jsonl")
	os.WriteFile(sessionFile, nil, 0o600)
	evalSession := &rules.Session{}

	type step struct {
		phase, tool string
		input       map[string]any
	}
	var steps []step
	call := func(tool string, input map[string]any) {
		steps = append(steps, step{"pre", tool, input}, step{"post", tool, input})
	}
	for range 3 {
		call("Bash", map[string]any{"command": "python x.py"})
	}
	steps = append(steps, step{"pre", "Bash", map[string]any{"command": "cat x.py"}})
	for i := range 11 {
		call("Read", map[string]any{"file_path": "/w/f" + string(rune('a'+i)) + ".py"})
	}
	steps = append(steps, step{"pre", "Bash", map[string]any{"command": "sudo python x.py"}})
	steps = append(steps, step{"pre", "Write", map[string]any{"file_path": "/w/n.py", "content": "x"}})

	fired := map[string]bool{}
	for i, st := range steps {
		var result any
		if st.phase == "post" {
			result = "ok"
		}
		// serve, /v1/decide
		body, _ := json.Marshal(map[string]any{"agent": "marco", "session": "one", "phase": st.phase, "tool": st.tool, "input": st.input, "result": result})
		var dr serve.DecideResponse
		postJSON(t, ts.URL+"/v1/decide", body, &dr)
		got := map[string]outcome{"serve": {dr.Decision, ruleNames(dr.Rules)}}

		// eval, the session in a file the runtime keeps
		cb, _ := json.Marshal(rules.Call{Tool: st.tool, Args: st.input, Result: result})
		out := execCharter(t, cb, "eval", "--bundle", b, "--agent", "marco", "--phase", st.phase, "--session", sessionFile)
		var v rules.Verdict
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatalf("eval: %v: %s", err, out)
		}
		var names []string
		for _, f := range v.Fired {
			names = append(names, f.Rule)
		}
		got["eval"] = outcome{decisionWordOf(v.Decision), sortedNames(names)}
		if st.phase == "post" {
			evalSession.Record(rules.Call{Tool: st.tool, Args: st.input, Result: result})
			var buf bytes.Buffer
			evalSession.WriteJSONL(&buf)
			os.WriteFile(sessionFile, buf.Bytes(), 0o600)
		}

		// the hook, a process per call, and serve's HTTP hook
		event := "PreToolUse"
		if st.phase == "post" {
			event = "PostToolUse"
		}
		hin, _ := json.Marshal(map[string]any{"session_id": "one", "hook_event_name": event, "tool_name": st.tool,
			"tool_input": st.input, "tool_response": result, "tool_use_id": "t" + string(rune('A'+i/2))})
		out = execCharter(t, hin, "eval", "--protocol", "claude-code", "--bundle", b, "--agent", "marco", "--state-dir", filepath.Join(dir, "state"))
		got["hook"] = hookOutcome(t, out)
		var hb bytes.Buffer
		resp, err := http.Post(ts.URL+"/v1/hooks/claude-code?agent=marco", "application/json", bytes.NewReader(hin))
		if err != nil {
			t.Fatal(err)
		}
		hb.ReadFrom(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("http hook: %d %s", resp.StatusCode, hb.Bytes())
		}
		got["http hook"] = hookOutcome(t, hb.Bytes())

		want := got["serve"]
		for name, o := range got {
			if !cmp.Equal(o, want, cmp.Comparer(func(a, b []string) bool { return slices.Equal(a, b) })) {
				t.Errorf("step %d (%s %s %v): %s says %+v, serve %+v", i, st.phase, st.tool, st.input, name, o, want)
			}
		}
		for _, r := range want.Rules {
			fired[r] = true
		}
	}
	// The session is one on which rules fire: a warn, a remind, the gate.
	for _, r := range []string{"avoid_retry_loop", "delegate_large_reads", "permissions"} {
		if !fired[r] {
			t.Errorf("rule %s never fired: the replay tests less than it should", r)
		}
	}
}

func postJSON(t *testing.T, url string, body []byte, v any) {
	t.Helper()
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("POST %s: %d", url, resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

func execCharter(t *testing.T, stdin []byte, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("charter", args...)
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("charter %s: %v: %s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return out
}

func ruleNames(rs []serve.Rule) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Rule)
	}
	return sortedNames(out)
}

func sortedNames(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}

func decisionWordOf(d rules.Decision) string {
	switch d {
	case rules.Allowed:
		return "allow"
	case rules.Asked:
		return "ask"
	}
	return "deny"
}

// hookOutcome reads a Claude Code hook answer: the decision, and the
// rules its messages name.
func hookOutcome(t *testing.T, out []byte) outcome {
	t.Helper()
	o := outcome{Decision: "allow"}
	if len(bytes.TrimSpace(out)) == 0 {
		return o
	}
	var ans struct {
		HookSpecificOutput struct {
			PermissionDecision       string `json:"permissionDecision"`
			PermissionDecisionReason string `json:"permissionDecisionReason"`
			AdditionalContext        string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out, &ans); err != nil {
		t.Fatalf("hook answer %s: %v", out, err)
	}
	if d := ans.HookSpecificOutput.PermissionDecision; d != "" {
		o.Decision = d
	}
	var names []string
	for _, m := range hookRule.FindAllStringSubmatch(ans.HookSpecificOutput.PermissionDecisionReason+ans.HookSpecificOutput.AdditionalContext, -1) {
		names = append(names, m[1])
	}
	o.Rules = sortedNames(names)
	return o
}
