package serve

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/enforce/decisionlog"
	"github.com/charter-dev/charter/internal/testkit/testrepo"
	"github.com/charter-dev/charter/rules"
)

// buildBundle builds files into a bundle directory.
func buildBundle(t testing.TB, files map[string]string, opts bundle.Options) string {
	t.Helper()
	tree, err := bundle.Build(testrepo.Compile(t, testrepo.FS(files)), opts)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir() + "/dist"
	if err := bundle.WriteDir(dir, tree); err != nil {
		t.Fatal(err)
	}
	return dir
}

// hookAnswer posts one Claude Code hook input to serve's HTTP hook and
// returns its decision ("" for none) and reason.
func hookAnswer(t *testing.T, url, agent, input string) (decision, reason string) {
	t.Helper()
	code, b := post(t, url+"/v1/hooks/claude-code?agent="+agent, input)
	if code != 200 {
		t.Fatalf("hook %s: %d %s", input, code, b)
	}
	var out struct {
		HookSpecificOutput struct {
			PermissionDecision       string `json:"permissionDecision"`
			PermissionDecisionReason string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("hook answer %s: %v", b, err)
	}
	return out.HookSpecificOutput.PermissionDecision, out.HookSpecificOutput.PermissionDecisionReason
}

// TestDelegation: /v1/decide, AuthZEN and the Claude Code HTTP hook deny
// a delegation call that starts a bundle agent outside the caller's
// delegates_to, and the hook judges a subagent's calls as itself only
// when the main agent may start it, whatever --fail-open says.
func TestDelegation(t *testing.T) {
	dir := buildBundle(t, testrepo.DelegationTeam, bundle.Options{})
	for _, onError := range []rules.OnError{rules.OnErrorDeny, rules.OnErrorAllow} {
		_, ts := start(t, Options{Bundle: dir, OnError: onError})

		// /v1/decide, with Claude Code's names and charter's own.
		for _, c := range []struct {
			agent, tool, input, decision, says string
		}{
			{"loner", "Agent", `{"description":"d","prompt":"p","subagent_type":"ops-bot"}`, "deny", "loner may not start ops_bot"},
			{"loner", "Task", `{"description":"d","prompt":"p","subagent_type":"Ops_Bot"}`, "deny", "loner may not start ops_bot"},
			{"loner", "delegate_to_executor", `{"goal":"g","agent":"ops_bot"}`, "deny", "loner may not start ops_bot"},
			{"lead", "Agent", `{"description":"d","prompt":"p","subagent_type":"junior"}`, "deny", "lead may not start junior"},
			{"lead", "Agent", `{"description":"d","prompt":"p","subagent_type":"rev"}`, "allow", ""},
			{"loner", "Agent", `{"description":"d","prompt":"p","subagent_type":"loner"}`, "allow", ""},
			{"loner", "Agent", `{"description":"d","prompt":"p","subagent_type":"Explore"}`, "allow", "Explore is no agent of the bundle"},
		} {
			r := decide(t, ts.URL, `{"agent":"`+c.agent+`","session":"d","phase":"pre","tool":"`+c.tool+`","input":`+c.input+`}`)
			all, _ := json.Marshal(r)
			if r.Decision != c.decision || !strings.Contains(string(all), c.says) {
				t.Errorf("on-error %v: /v1/decide %s %s %s: %s; want %s saying %q", onError, c.agent, c.tool, c.input, all, c.decision, c.says)
			}
			if c.decision == "deny" && (len(r.Rules) != 1 || r.Rules[0].Rule != rules.DelegationRule) {
				t.Errorf("/v1/decide %s %s: rules %+v, want can_delegate_to", c.agent, c.input, r.Rules)
			}
		}

		// AuthZEN.
		code, b := post(t, ts.URL+"/access/v1/evaluation", `{"subject":{"type":"agent","id":"loner"},"action":{"name":"Agent"},"resource":{"type":"tool","id":"Agent"},"context":{"input":{"description":"d","prompt":"p","subagent_type":"ops_bot"}}}`)
		if code != 200 || !strings.Contains(string(b), `"decision":false`) || !strings.Contains(string(b), "loner may not start ops_bot") {
			t.Errorf("on-error %v: AuthZEN loner starts ops_bot: %d %s", onError, code, b)
		}

		// The HTTP hook.
		for _, c := range []struct {
			agent, input, decision, says string
		}{
			// The Agent call that would start ops_bot.
			{"loner", `{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Agent","tool_input":{"description":"d","prompt":"p","subagent_type":"ops-bot"},"tool_use_id":"t1"}`,
				"deny", "loner may not start ops_bot: ops_bot is not in loner's authority.can_delegate_to"},
			// A call from ops_bot in loner's session: a verdict, not a failure.
			{"loner", `{"session_id":"s1","agent_id":"a1","agent_type":"ops-bot","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /srv"},"tool_use_id":"t2"}`,
				"deny", "the call comes from ops_bot (ops-bot), which loner may not start"},
			// The main thread of claude --agent ops-bot under loner's hook.
			{"loner", `{"session_id":"s2","agent_type":"ops-bot","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t3"}`,
				"deny", "which loner may not start"},
			// lead may start rev, and rev junior: each judged as itself.
			{"lead", `{"session_id":"s3","agent_id":"a2","agent_type":"rev","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"a.cue"},"tool_use_id":"t4"}`, "", ""},
			{"lead", `{"session_id":"s3","agent_id":"a3","agent_type":"junior","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"a.cue"},"tool_use_id":"t5"}`, "", ""},
			// ... and rev may not start ops_bot (rev's gate, not lead's).
			{"lead", `{"session_id":"s3","agent_id":"a2","agent_type":"rev","hook_event_name":"PreToolUse","tool_name":"Agent","tool_input":{"description":"d","prompt":"p","subagent_type":"ops-bot"},"tool_use_id":"t6"}`,
				"deny", "rev may not start ops_bot"},
			// junior is judged as junior, who has no delegation tool.
			{"lead", `{"session_id":"s3","agent_id":"a3","agent_type":"junior","hook_event_name":"PreToolUse","tool_name":"Agent","tool_input":{"description":"d","prompt":"p","subagent_type":"Explore"},"tool_use_id":"t7"}`,
				"deny", "junior may not call delegate_to_executor"},
			// Claude Code's own subagent is judged as the session's agent.
			{"lead", `{"session_id":"s3","agent_id":"a4","agent_type":"general-purpose","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t8"}`,
				"deny", "lead may not call run_bash"},
		} {
			d, why := hookAnswer(t, ts.URL, c.agent, c.input)
			if d != c.decision || !strings.Contains(why, c.says) {
				t.Errorf("on-error %v: hook ?agent=%s %s: %q %q; want %q saying %q", onError, c.agent, c.input, d, why, c.decision, c.says)
			}
		}
	}
}

// TestHookDenialsLogged: a call the HTTP hook denies before any rule runs
// (from an agent the session's agent may not start, for an agent the
// bundle lacks) is in the decision log as /v1/decide's are; before, only
// the calls an engine judged were.
func TestHookDenialsLogged(t *testing.T) {
	dir := buildBundle(t, testrepo.DelegationTeam, bundle.Options{})
	logFile := filepath.Join(t.TempDir(), "decisions.jsonl")
	dl, err := decisionlog.Open(logFile, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer dl.Close()
	_, ts := start(t, Options{Bundle: dir, Log: dl})
	hookAnswer(t, ts.URL, "loner", `{"session_id":"s1","agent_id":"a1","agent_type":"ops-bot","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /srv"},"tool_use_id":"t1"}`)
	hookAnswer(t, ts.URL, "nobody", `{"session_id":"s2","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"a"},"tool_use_id":"t2"}`)
	b, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r decisionlog.Record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		rs := []string{}
		for _, x := range r.Rules {
			rs = append(rs, x.Rule+":"+x.Action)
		}
		got = append(got, strings.Join([]string{r.Endpoint, r.Agent.ID, r.Session, r.Tool, r.Phase, r.Decision, strings.Join(rs, ",")}, " "))
	}
	want := []string{
		"claude-code loner s1 Bash pre deny can_delegate_to:block",
		"claude-code nobody s2 Read pre deny fail_closed:block",
	}
	if !cmp.Equal(got, want) {
		t.Errorf("decision log:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
