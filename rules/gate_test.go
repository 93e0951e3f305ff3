package rules

import (
	"strings"
	"testing"
)

func TestGate(t *testing.T) {
	p := Profile{Name: "p", Rules: []Rule{{ID: "read_before_edit", Trigger: "*", Action: Warn, Message: "read first", Enabled: true}}}
	e, err := Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	gate := &Gate{Agent: "ravi", Tools: []string{"read_file"}, Excluded: map[string]string{"write_file": "tools.denied names write_file (tools.denied at a.cue:3:2)"},
		Names: map[string]string{"Read": "read_file", "Edit": "write_file", "WebFetch": "fetch_page"}, NameRuntime: map[string]string{"Read": "claude-code", "Edit": "claude-code", "WebFetch": "claude-code"},
		Runtime: "claude-code", Declared: true}
	e.SetGate(gate)
	for _, c := range []struct {
		tool, restrictedBy string
		decision           Decision
		want               string // in the block message or the note
		rules              bool   // the profile's rules ran
	}{
		{tool: "read_file", decision: Allowed, rules: true},
		{tool: "Read", decision: Allowed, rules: true},
		{tool: "Edit", decision: Blocked, want: "ravi may not call write_file (claude-code's Edit): tools.denied names write_file (tools.denied at a.cue:3:2)"},
		{tool: "write_file", decision: Blocked, want: "ravi may not call write_file: tools.denied"},
		{tool: "WebFetch", decision: Blocked, want: "none of its behaviors provides fetch_page; it may call read_file"},
		{tool: "mcp__x__y", decision: Allowed, rules: true, want: "the claude-code tool-name table maps mcp__x__y to no charter tool, and ravi has no allow-list, so the profile decides"},
		{tool: "mcp__x__y", restrictedBy: "tools.allowed at a.cue:2:2", decision: Blocked, want: "only what tools.allowed at a.cue:2:2 admits (read_file)"},
	} {
		gate.Restricted, gate.RestrictedBy = c.restrictedBy != "", c.restrictedBy
		v := e.Evaluate(Pre, Call{Tool: c.tool}, &Session{})
		if v.Decision != c.decision {
			t.Errorf("%s: decision %s, want %s (%+v)", c.tool, v.Decision, c.decision, v)
		}
		text := strings.Join(v.Notes, "\n")
		for _, f := range v.Fired {
			text += "\n" + f.Rule + ": " + f.Message
		}
		if !strings.Contains(text, c.want) {
			t.Errorf("%s: %q lacks %q", c.tool, text, c.want)
		}
		ran := strings.Contains(text, "read_before_edit")
		if ran != c.rules {
			t.Errorf("%s: the profile's rules ran = %v, want %v: %s", c.tool, ran, c.rules, text)
		}
		if post := e.Evaluate(Post, Call{Tool: c.tool}, &Session{}); post.Decision != Allowed {
			t.Errorf("%s: the gate judged phase post", c.tool)
		}
	}
}
