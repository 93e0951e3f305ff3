package serve

import (
	"strings"
	"testing"
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
