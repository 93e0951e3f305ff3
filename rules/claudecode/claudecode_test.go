package claudecode_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/rules"
	"github.com/charter-dev/charter/rules/claudecode"
)

// engine compiles testdata/coding.json, a compiled profile as charter build
// writes it.
func engine(t testing.TB) *rules.Engine {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "coding.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := rules.DecodeProfile(f)
	if err != nil {
		t.Fatal(err)
	}
	e, err := rules.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func hookInput(event, tool string, input map[string]any, response any) string {
	in := map[string]any{
		"session_id":      "0b5c1f6e-7d1a-4f5e-9a3c-2f8e4d6b1a90",
		"transcript_path": "/home/u/.claude/projects/p/0b5c1f6e.jsonl",
		"cwd":             "/repo",
		"permission_mode": "default",
		"hook_event_name": event,
		"tool_name":       tool,
		"tool_input":      input,
		"tool_use_id":     "toolu_01",
	}
	if event == claudecode.PostToolUse {
		in["tool_response"] = response
	}
	b, _ := json.Marshal(in)
	return string(b)
}

// TestSession plays a Claude Code session through the hook, one Handle per
// event, as Claude Code would run the hook command.
func TestSession(t *testing.T) {
	e := engine(t)
	dir := t.TempDir()
	edit := func(n int) map[string]any {
		return map[string]any{"file_path": "/repo/calc.py", "old_string": fmt.Sprint("+ ", n), "new_string": fmt.Sprint("+ ", n+1)}
	}
	steps := []struct {
		event, tool string
		input       map[string]any
		response    any
		want        string // the exact output, "" for none
	}{
		{claudecode.PreToolUse, "Edit", edit(0), nil,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"You are editing a file you have not read in this session. Call Read first. (charter rule read_before_edit)"}}`},
		{claudecode.PostToolUse, "Edit", edit(0), map[string]any{"filePath": "/repo/calc.py"},
			`{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"Read the file you just edited to verify the change is what you intended. (charter rule verify_after_edit)"}}`},
		{claudecode.PreToolUse, "Bash", map[string]any{"command": "rm -rf /", "description": "clean up"}, nil,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"This command destroys data. Ask the user for explicit approval before running it. (charter rule confirm_destructive)"}}`},
		// Denied: Claude Code sends no PostToolUse for it.
		{claudecode.PreToolUse, "Read", map[string]any{"file_path": "/repo/calc.py"}, nil, ""},
		{claudecode.PostToolUse, "Read", map[string]any{"file_path": "/repo/calc.py"}, map[string]any{"type": "text"}, ""},
		{claudecode.PreToolUse, "Edit", edit(1), nil, ""},
		{claudecode.PostToolUse, "Edit", edit(1), "ok", ""},
		{claudecode.PostToolUse, "Edit", edit(2), "ok",
			`{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"Read the file you just edited to verify the change is what you intended. (charter rule verify_after_edit)"}}`},
		{claudecode.PostToolUse, "Edit", edit(3), "ok", ""},
		{claudecode.PostToolUse, "Edit", edit(4), "ok",
			`{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"You have made five or more edits without running the tests. Run them now. (charter rule test_after_changes)"}}`},
		{claudecode.PreToolUse, "Glob", map[string]any{"pattern": "*.py"}, nil,
			`{"systemMessage":"charter: rule broken could not be evaluated on this Glob call, so it did not fire: no such key: no_such_argument"}`},
	}
	for i, st := range steps {
		var out bytes.Buffer
		err := claudecode.Handle(strings.NewReader(hookInput(st.event, st.tool, st.input, st.response)), &out, e, dir)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		got := strings.TrimSuffix(out.String(), "\n")
		if diff := cmp.Diff(st.want, got); diff != "" {
			t.Errorf("step %d (%s %s) output (-want +got):\n%s", i, st.event, st.tool, diff)
		}
	}
	// The session holds the calls that ran: Edit, Read and four Edits.
	st := &rules.Store{Dir: dir}
	st.Update("0b5c1f6e-7d1a-4f5e-9a3c-2f8e4d6b1a90", func(s *rules.Session) error {
		if s.Len() != 6 {
			t.Errorf("session has %d calls, want 6", s.Len())
		}
		return nil
	})
}

// TestBadInput: input the hook cannot read is denied, with the reason, and
// the hook writes its answer (Claude Code lets a call through when a hook
// exits 1; this one always answers).
func TestBadInput(t *testing.T) {
	e := engine(t)
	dir := t.TempDir()
	valid := func(mut func(m map[string]any)) string {
		m := map[string]any{"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}}
		mut(m)
		b, _ := json.Marshal(m)
		return string(b)
	}
	deep := strings.Repeat("[", 10000) + strings.Repeat("]", 10000)
	tests := []struct {
		name, input, want string
	}{
		{"empty", "", "hook input is empty; charter expects Claude Code's PreToolUse, PostToolUse or SessionEnd JSON on standard input"},
		{"not json", "rm -rf /", "hook input is not JSON charter can read (invalid character 'r' looking for beginning of value)"},
		{"truncated", `{"session_id":"s",`, "hook input is not JSON charter can read (unexpected end of JSON input)"},
		{"array", `[1]`, "hook input is not JSON charter can read (json: cannot unmarshal array into Go value of type claudecode.Input)"},
		{"nested 10,000 deep", `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"a","d":` + deep + `}}`, "exceeded max depth"},
		{"nested past the engine's limit", `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"a","d":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}}`, "nested more than 64 deep"},
		{"a number no float holds", `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"a","n":1e999}}`, "tool_input is number 1e999, not float64"},
		{"no tool name", valid(func(m map[string]any) { delete(m, "tool_name") }), "hook input has no tool_name; charter expects Claude Code's PreToolUse or PostToolUse JSON"},
		{"no event", valid(func(m map[string]any) { delete(m, "hook_event_name") }), "hook input has no hook_event_name; register charter for PreToolUse, PostToolUse and SessionEnd hooks only"},
		{"no session", valid(func(m map[string]any) { delete(m, "session_id") }), "hook input has no session_id; charter needs it to keep the session between calls"},
		{"tool_input not an object", valid(func(m map[string]any) { m["tool_input"] = []any{1} }), "hook input: tool_input is array, not map[string]interface {}"},
		{"tool_input null", valid(func(m map[string]any) { m["tool_input"] = nil }), "hook input: tool_input is null, not an object"},
		{"tool_name not a string", valid(func(m map[string]any) { m["tool_name"] = 7 }), "hook input: tool_name is number, not string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := claudecode.Handle(strings.NewReader(tt.input), &out, e, dir); err != nil {
				t.Fatal(err)
			}
			var o claudecode.Output
			if err := json.Unmarshal(out.Bytes(), &o); err != nil {
				t.Fatalf("output %q: %v", out.String(), err)
			}
			h := o.HookSpecificOutput
			if h == nil || h.PermissionDecision != "deny" || !strings.Contains(h.PermissionDecisionReason, tt.want) {
				t.Errorf("output %s; want a deny saying %q", out.String(), tt.want)
			}
		})
	}
	// An event charter does not judge is said, not denied; a failure on
	// PostToolUse, which decides nothing, is a message.
	for in, want := range map[string]string{
		valid(func(m map[string]any) { m["hook_event_name"] = "Stop" }):                               `{"systemMessage":"charter: hook event \"Stop\" is not one charter judges; register charter for PreToolUse, PostToolUse and SessionEnd hooks only"}`,
		valid(func(m map[string]any) { m["hook_event_name"] = "PostToolUse"; m["tool_input"] = nil }): `{"systemMessage":"charter: hook input: tool_input is null, not an object; charter expects Claude Code's PreToolUse or PostToolUse JSON"}`,
	} {
		var out bytes.Buffer
		if err := claudecode.Handle(strings.NewReader(in), &out, e, dir); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, strings.TrimSpace(out.String())); diff != "" {
			t.Errorf("output (-want +got):\n%s", diff)
		}
	}
	// The operator's choice: the call goes on, and the user is told.
	h := &claudecode.Handler{Engine: func(string) (*rules.Engine, string, error) { return e, "", nil }, Store: &rules.Store{Dir: dir}, OnError: rules.OnErrorAllow}
	var out bytes.Buffer
	if err := h.Handle(strings.NewReader("rm -rf /"), &out); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); strings.Contains(got, "permissionDecision") || !strings.Contains(got, `"systemMessage":"charter could not judge this call (hook input is not JSON`) {
		t.Errorf("with OnErrorAllow: %s", got)
	}
}

func TestDamagedState(t *testing.T) {
	e := engine(t)
	dir := t.TempDir()
	in := hookInput(claudecode.PostToolUse, "Read", map[string]any{"file_path": "/repo/a.py"}, "x")
	if err := claudecode.Handle(strings.NewReader(in), &bytes.Buffer{}, e, dir); err != nil {
		t.Fatal(err)
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if len(matches) != 1 {
		t.Fatalf("state files: %v", matches)
	}
	f, _ := os.OpenFile(matches[0], os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"tool":"Edit","path":"/repo/a.py","fingerp`)
	f.Close()
	var out bytes.Buffer
	if err := claudecode.Handle(strings.NewReader(in), &out, e, dir); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"systemMessage":"charter: the saved session was damaged and has been repaired; 1 corrupt line skipped (the other lines were read); line 2: not a session event: unexpected end of JSON input"`) {
		t.Errorf("output: %s", out.String())
	}
}

// seed writes a session of n calls into dir, as n PostToolUse hooks would.
func seed(t testing.TB, dir string, n int) {
	t.Helper()
	st := &rules.Store{Dir: dir}
	file := strings.Repeat("def f():\n    return 42\n", 200)
	_, err := st.Update("0b5c1f6e-7d1a-4f5e-9a3c-2f8e4d6b1a90", func(s *rules.Session) error {
		for i := range n {
			p := fmt.Sprintf("/repo/f%d.py", i%40)
			switch i % 4 {
			case 0:
				s.Record(rules.Call{Tool: "Read", Args: map[string]any{"file_path": p},
					Result: map[string]any{"type": "text", "file": map[string]any{"filePath": p, "content": file}}})
			case 1:
				s.Record(rules.Call{Tool: "Edit", Args: map[string]any{"file_path": p, "old_string": file[:300], "new_string": file[:310]},
					Result: map[string]any{"filePath": p, "oldString": file[:300], "newString": file[:310]}})
			case 2:
				s.Record(rules.Call{Tool: "Bash", Args: map[string]any{"command": "pytest -q"}, Result: map[string]any{"stdout": file[:2000]}})
			case 3:
				s.Record(rules.Call{Tool: "Grep", Args: map[string]any{"pattern": fmt.Sprint("f", i)}, Result: p})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// BenchmarkHandlePre1000 is one PreToolUse hook call (read the input, lock,
// load the 1,000-call session, judge, answer) without process start-up and
// profile compilation.
func BenchmarkHandlePre1000(b *testing.B) {
	e := engine(b)
	dir := b.TempDir()
	seed(b, dir, 1000)
	pre := hookInput(claudecode.PreToolUse, "Edit", map[string]any{"file_path": "/repo/f1.py", "old_string": "a", "new_string": "b"}, nil)
	b.ReportAllocs()
	for b.Loop() {
		if err := claudecode.Handle(strings.NewReader(pre), &bytes.Buffer{}, e, dir); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHandlePostEdit1000 is one PostToolUse hook call on an Edit with a
// 1,000-call session: the remind rules run (test_after_changes scans every
// earlier Bash command, as a new hook process has no cached scan), and the
// call is appended to the session.
func BenchmarkHandlePostEdit1000(b *testing.B) {
	e := engine(b)
	dir := b.TempDir()
	seed(b, dir, 1000)
	state := filepath.Join(dir, "0b5c1f6e-7d1a-4f5e-9a3c-2f8e4d6b1a90.jsonl")
	saved, err := os.ReadFile(state)
	if err != nil {
		b.Fatal(err)
	}
	post := hookInput(claudecode.PostToolUse, "Edit", map[string]any{"file_path": "/repo/f1.py", "old_string": "a", "new_string": "b"}, "ok")
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		if err := os.WriteFile(state, saved, 0o600); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if err := claudecode.Handle(strings.NewReader(post), &bytes.Buffer{}, e, dir); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzHandle feeds arbitrary input to the hook: it answers or errors, and
// never panics.
func FuzzHandle(f *testing.F) {
	f.Add(hookInput(claudecode.PreToolUse, "Bash", map[string]any{"command": "rm -rf /"}, nil))
	f.Add(hookInput(claudecode.PostToolUse, "Edit", map[string]any{"file_path": 3}, []any{nil}))
	f.Add(`{"session_id":"../x","hook_event_name":"PreToolUse","tool_name":"Glob","tool_input":{"pattern":{}}}`)
	e := engine(f)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, in string) {
		var out bytes.Buffer
		if err := claudecode.Handle(strings.NewReader(in), &out, e, dir); err == nil && out.Len() > 0 && !json.Valid(out.Bytes()) {
			t.Fatalf("output is not JSON: %s", out.String())
		}
	})
}

// TestSessionEnd checks that SessionEnd deletes the session's state, says
// nothing, and prunes the state of sessions idle for longer than
// StaleAfter (but not of recent ones) in charter's own state folder.
func TestSessionEnd(t *testing.T) {
	e := engine(t)
	dir := filepath.Join(t.TempDir(), "sessions") // made by the store: charter's own
	in := hookInput(claudecode.PostToolUse, "Read", map[string]any{"file_path": "/repo/a.py"}, "x")
	if err := claudecode.Handle(strings.NewReader(in), &bytes.Buffer{}, e, dir); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(dir, "crashed.jsonl")
	recent := filepath.Join(dir, "running.jsonl")
	for _, f := range []string{old, recent, filepath.Join(dir, "crashed.lock")} {
		if err := os.WriteFile(f, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	long := time.Now().Add(-claudecode.StaleAfter - time.Hour)
	for _, f := range []string{old, filepath.Join(dir, "crashed.lock")} {
		if err := os.Chtimes(f, long, long); err != nil {
			t.Fatal(err)
		}
	}
	end := `{"session_id":"0b5c1f6e-7d1a-4f5e-9a3c-2f8e4d6b1a90","hook_event_name":"SessionEnd","reason":"exit","cwd":"/repo"}`
	var out bytes.Buffer
	if err := claudecode.Handle(strings.NewReader(end), &out, e, dir); err != nil {
		t.Fatal(err)
	}
	if out.Len() > 0 {
		t.Errorf("SessionEnd wrote %s, want nothing", out.String())
	}
	var left []string
	entries, _ := os.ReadDir(dir)
	for _, en := range entries {
		if strings.HasSuffix(en.Name(), ".jsonl") {
			left = append(left, en.Name())
		}
	}
	if diff := cmp.Diff([]string{"running.jsonl"}, left); diff != "" {
		t.Errorf("sessions left after SessionEnd (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(filepath.Join(dir, "crashed.lock")); err == nil {
		t.Errorf("the stale lock file of a pruned session is still there")
	}
}

// TestGateNotes: a name the agent's gate could not place reaches Claude
// Code as the system message, and a call it blocks as the deny reason.
func TestGateNotes(t *testing.T) {
	e := engine(t)
	e.SetGate(&rules.Gate{Agent: "ann", Tools: []string{"read_file"}, Runtime: "claude-code", Declared: true,
		Excluded: map[string]string{"write_file": "tools.denied names write_file (tools.denied at a.cue:3:2)"},
		Names:    map[string]string{"Read": "read_file", "Edit": "write_file"}, NameRuntime: map[string]string{"Read": "claude-code", "Edit": "claude-code"}})
	dir := t.TempDir()
	for _, c := range []struct{ tool, want string }{
		{"mcp__x__y", `"permissionDecision":"deny","permissionDecisionReason":"ann may not call mcp__x__y: the claude-code tool-name table maps mcp__x__y to no charter tool, and charter denies a tool it cannot place`},
		{"Edit", `"permissionDecision":"deny","permissionDecisionReason":"ann may not call write_file (claude-code's Edit): tools.denied names write_file (tools.denied at a.cue:3:2) (charter rule permissions)"`},
	} {
		var out bytes.Buffer
		if err := claudecode.Handle(strings.NewReader(hookInput("PreToolUse", c.tool, map[string]any{}, nil)), &out, e, dir); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), c.want) {
			t.Errorf("%s: hook output\n%s\nlacks %s", c.tool, out.String(), c.want)
		}
	}
}

// TestSubagents: a subagent's call is judged by its own engine (its
// agent_type), in a session of its own within the Claude Code session; the
// Handler's Engine says when it falls back to another agent.
func TestSubagents(t *testing.T) {
	mk := func(agent string, tools ...string) *rules.Engine {
		e, err := rules.Compile(rules.Profile{Name: "p", Rules: []rules.Rule{{ID: "count", Trigger: "*", Action: rules.Warn, Enabled: true, Message: "third call",
			Condition: &rules.Condition{Type: rules.Expr, Expr: "size(session) == 2"}}}})
		if err != nil {
			t.Fatal(err)
		}
		e.SetGate(&rules.Gate{Agent: agent, Tools: tools, Declared: true, Runtime: "claude-code",
			Names: map[string]string{"Bash": "run_bash", "Read": "read_file"}, NameRuntime: map[string]string{"Bash": "claude-code", "Read": "claude-code"}})
		return e
	}
	engines := map[string]*rules.Engine{"priya": mk("priya", "read_file"), "marco": mk("marco", "read_file", "run_bash")}
	dir := t.TempDir()
	h := &claudecode.Handler{Store: &rules.Store{Dir: dir}, Engine: func(agentType string) (*rules.Engine, string, error) {
		if e, ok := engines[agentType]; ok {
			return e, "", nil
		}
		note := ""
		if agentType != "" {
			note = "charter: " + agentType + " is no agent of the bundle; judged as priya"
		}
		return engines["priya"], note, nil
	}}
	call := func(event, tool, agentType, agentID string) string {
		in := map[string]any{"session_id": "s1", "hook_event_name": event, "tool_name": tool, "tool_input": map[string]any{"command": "ls", "file_path": "a"},
			"tool_use_id": fmt.Sprint("toolu_", tool, agentID, event)}
		if event == claudecode.PostToolUse {
			in["tool_response"] = "ok"
		}
		if agentType != "" {
			in["agent_type"] = agentType
		}
		if agentID != "" {
			in["agent_id"] = agentID
		}
		b, _ := json.Marshal(in)
		var out bytes.Buffer
		if err := h.Handle(bytes.NewReader(b), &out); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	// The main thread is priya, who may not run commands; marco may.
	if out := call("PreToolUse", "Bash", "", ""); !strings.Contains(out, "priya may not call run_bash") {
		t.Errorf("main thread Bash: %s", out)
	}
	if out := call("PreToolUse", "Bash", "marco", "a1"); out != "" {
		t.Errorf("marco's Bash: %s", out)
	}
	// Each agent's history is its own: two main-thread calls and one of
	// marco's do not make marco's third call.
	call("PostToolUse", "Read", "", "")
	call("PostToolUse", "Read", "", "")
	call("PostToolUse", "Bash", "marco", "a1")
	if out := call("PreToolUse", "Read", "", ""); !strings.Contains(out, "third call") {
		t.Errorf("the main thread's third call: %s", out)
	}
	if out := call("PreToolUse", "Read", "marco", "a1"); strings.Contains(out, "third call") {
		t.Errorf("marco's second call counted the main thread's: %s", out)
	}
	// An agent_type the bundle does not have is judged as the fallback,
	// and the user is told.
	if out := call("PreToolUse", "Bash", "general-purpose", "a2"); !strings.Contains(out, "priya may not call run_bash") || !strings.Contains(out, "general-purpose is no agent of the bundle") {
		t.Errorf("unknown subagent: %s", out)
	}
	// SessionEnd removes every agent's session.
	call("SessionEnd", "", "", "")
	if entries, _ := os.ReadDir(dir); len(entries) > 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("left after SessionEnd: %v", names)
	}
}

// TestAsk: an ask rule answers "ask"; the call's PostToolUse (the user
// approved it) records the approval, from which the rule's cooldown
// counts; a call the user declined is asked about again.
func TestAsk(t *testing.T) {
	e, err := rules.Compile(rules.Profile{Name: "p", Rules: []rules.Rule{{ID: "confirm", Trigger: "Bash", Action: rules.Ask, Enabled: true, Cooldown: 1,
		Message: "Ask first.", Condition: &rules.Condition{Type: rules.Contains, Field: "command", Substring: "rm"}}}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	run := func(event, id string) string {
		in := map[string]any{"session_id": "s1", "hook_event_name": event, "tool_name": "Bash", "tool_input": map[string]any{"command": "rm x"}, "tool_use_id": id}
		if event == claudecode.PostToolUse {
			in["tool_response"] = "ok"
		}
		b, _ := json.Marshal(in)
		var out bytes.Buffer
		if err := claudecode.Handle(bytes.NewReader(b), &out, e, dir); err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(out.String())
	}
	ask := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"Ask first. (charter rule confirm)"}}`
	if got := run("PreToolUse", "t1"); got != ask {
		t.Fatalf("first: %s", got)
	}
	// Declined (no PostToolUse): asked again.
	if got := run("PreToolUse", "t2"); got != ask {
		t.Fatalf("after a decline: %s", got)
	}
	// Approved: it ran.
	run("PostToolUse", "t2")
	if got := run("PreToolUse", "t3"); got != "" {
		t.Errorf("within the cooldown of the approval: %s", got)
	}
	run("PostToolUse", "t3")
	if got := run("PreToolUse", "t4"); got != ask {
		t.Errorf("after the cooldown: %s", got)
	}
}
