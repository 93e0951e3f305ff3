package serve

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/enforce/decisionlog"
	"github.com/charter-dev/charter/internal/enforce/sessions"
)

// A member given twice, or twice in letters that differ only in case
// (Go reads "Context" and the long s of "ſession" as "context" and
// "session"), is a 400: encoding/json kept the last one, where a gateway
// or a log reader in front of charter may read the first, so that what
// was checked or recorded there is not what charter judged ({"command":
// "python", "command": "rm -rf /"} judged as rm). The Claude Code hook
// denies such an input.
func TestDuplicateMembers(t *testing.T) {
	_, ts := start(t, Options{})
	for _, c := range []struct{ path, body string }{
		{"/v1/decide", `{"agent":"marco","session":"s","phase":"pre","tool":"run_bash","input":{"command":"python","command":"rm -rf /"}}`},
		{"/v1/decide", `{"agent":"marco","session":"s","phase":"pre","tool":"run_bash","input":{"command":"python"},"Input":{"command":"rm -rf /"}}`},
		{"/v1/decide", `{"agent":"marco","agent":"sarah","session":"s","phase":"pre","tool":"run_bash","input":{"command":"python"}}`},
		{"/v1/decide", `{"agent":"marco","session":"s","phase":"pre","tool":"run_bash","input":{"command":"python","\u0063ommand":"rm -rf /"}}`},
		{"/access/v1/evaluation", `{"subject":{"type":"agent","id":"marco"},"action":{"name":"run_bash"},"resource":{"type":"tool","id":"run_bash"},"context":{"input":{"command":"python"}},"Context":{"input":{"command":"rm -rf /"}}}`},
		{"/access/v1/evaluation", `{"subject":{"type":"agent","id":"marco","id":"sarah"},"action":{"name":"run_bash"},"resource":{"type":"tool","id":"run_bash"}}`},
		{"/access/v1/evaluations", `{"subject":{"type":"agent","id":"marco"},"evaluations":[{"action":{"name":"run_bash"},"resource":{"type":"tool","id":"run_bash"},"context":{"session":"a","ſession":"b"}}]}`},
	} {
		code, b := post(t, ts.URL+c.path, c.body)
		if code != 400 || !strings.Contains(string(b), "twice") {
			t.Errorf("%s %s: %d %s, want 400 naming the member given twice", c.path, c.body, code, b)
		}
	}
	hook := `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"python","command":"rm -rf /"}}`
	if d, why := hookAnswer(t, ts.URL, "marco", hook); d != "deny" || !strings.Contains(why, "twice") {
		t.Errorf("hook: %s %s, want a deny naming the member given twice", d, why)
	}
	// The event given twice: charter read the last (PostToolUse, which
	// decides nothing) and answered without a deny, where a gateway that
	// read the first passed that on for a PreToolUse call.
	for _, hook := range []string{
		`{"session_id":"s","hook_event_name":"PreToolUse","Hook_Event_Name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_response":""}`,
		`{"session_id":"s","hook_event_name":"PreToolUse","hook_event_name":"SessionEnd","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`,
	} {
		if d, why := hookAnswer(t, ts.URL, "marco", hook); d != "deny" || !strings.Contains(why, "twice") {
			t.Errorf("hook event twice %s: %q %s, want a deny naming the member given twice", hook, d, why)
		}
	}
	// Members alike in nothing but a prefix, or in other objects, are fine.
	if r := decide(t, ts.URL, `{"agent":"marco","session":"s","phase":"pre","tool":"run_bash","input":{"command":"python","commands":1,"x":{"command":2}}}`); r.Decision != "allow" {
		t.Errorf("distinct members: %+v", r)
	}
}

func TestCheckMembersLarge(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range 5000 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k` + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676)) + `":1`)
	}
	b.WriteString(`,"KAAA":2}`)
	if err := checkMembers([]byte(b.String())); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("a large object with two members alike: %v", err)
	}
}

// The Claude Code endpoint keeps sessions by the input's session_id and
// agent_id, which it took as they came, where /v1/decide checks a session
// id (sessions.CheckID): a megabyte id was a megabyte key kept for a day
// (10,000 of them, 10 GB of memory), an id holding NUL named another
// agent's session within the session (rules.AgentKey joins the two with
// NUL), and braces and colons in Redis keys (charter:sess:{ID}:AGENT)
// made two pairs one key. Such an input is denied, and nothing is kept.
func TestHookSessionIDs(t *testing.T) {
	st := sessions.NewMemory(sessions.Limits{})
	_, ts := start(t, Options{Sessions: st})
	in := func(session, agent string) string {
		b, _ := json.Marshal(map[string]any{"session_id": session, "agent_id": agent, "hook_event_name": "PostToolUse",
			"tool_name": "Read", "tool_input": map[string]any{"file_path": "/a"}, "tool_response": "x"})
		return string(b)
	}
	for name, body := range map[string]string{
		"a megabyte session id":  in(strings.Repeat("s", 1<<20), ""),
		"NUL in the session id":  in("s\x00lead", ""),
		"braces in the agent id": in("s", "a}:b"),
		"a slash":                in("../s", ""),
	} {
		code, b := post(t, ts.URL+"/v1/hooks/claude-code?agent=marco", body)
		if code != 200 || !strings.Contains(string(b), "session") {
			t.Errorf("%s: %d %.300s, want an answer naming the id", name, code, b)
		}
	}
	if n := st.Count(); n != 0 {
		t.Errorf("%d sessions kept for inputs refused", n)
	}
	pre := `{"session_id":"s\u0000x","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/a"}}`
	if d, why := hookAnswer(t, ts.URL, "marco", pre); d != "deny" || !strings.Contains(why, "session") {
		t.Errorf("a PreToolUse with NUL in its session id: %s %s, want a deny", d, why)
	}
	// Claude Code's own ids are kept.
	hookAnswer(t, ts.URL, "marco", in("2cb87eba-aa51-4f53-8b1f-3d6c5e0f9a11", "a01082e677b2de727"))
	if n := st.Count(); n != 1 {
		t.Errorf("Claude Code's ids: %d sessions kept, want 1", n)
	}
}

// A request refused before any engine judged it is in the decision log
// as a decision: an AuthZEN request charter does not judge (another
// subject or resource type, arguments elsewhere) and a Claude Code input
// with a member twice or an id charter does not keep were answered false
// or deny and left no record, so that probing the server left no trace.
func TestRefusalsLogged(t *testing.T) {
	logFile := filepath.Join(t.TempDir(), "decisions.jsonl")
	dl, err := decisionlog.Open(logFile, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer dl.Close()
	_, ts := start(t, Options{Log: dl})
	authzen(t, ts.URL, "/access/v1/evaluation", `{"subject":{"type":"agent","id":"marco"},"action":{"name":"read_file"},"resource":{"type":"file","id":"/etc/shadow"},"context":{"session":"s1"}}`)
	authzen(t, ts.URL, "/access/v1/evaluation", `{"subject":{"type":"user","id":"alice"},"action":{"name":"read_file"},"resource":{"type":"tool","id":"read_file"}}`)
	hookAnswer(t, ts.URL, "marco", `{"session_id":"s\u0000x","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/a"}}`)
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
		why := r.Reason
		for _, x := range r.Rules {
			why += x.Rule + ":" + x.Message
		}
		got = append(got, strings.Join([]string{r.Endpoint, r.Agent.ID, r.Session, r.Tool, r.Decision}, " "))
		if why == "" || r.DecisionID == "" {
			t.Errorf("a record without its reason or id: %s", line)
		}
	}
	want := []string{"authzen marco s1 read_file deny", "authzen alice  read_file deny", "claude-code marco   deny"}
	if !cmp.Equal(got, want) {
		t.Errorf("decision log:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
