package rules_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/rules"
)

// evalExpr evaluates one CEL condition against a call and a session and
// returns whether it held.
func evalExpr(t *testing.T, expr string, c rules.Call, s *rules.Session) bool {
	t.Helper()
	e := mustCompile(t, rule("x", "*", rules.Warn, &rules.Condition{Type: rules.Expr, Expr: expr}))
	v := e.Evaluate(rules.Pre, c, s)
	if len(v.Errors) > 0 {
		t.Fatalf("%s: %s", expr, v.Errors[0].Error)
	}
	return len(v.Fired) == 1
}

func TestSessionFunctions(t *testing.T) {
	s := &rules.Session{}
	for _, c := range []rules.Call{
		{Tool: "Read", Args: map[string]any{"file_path": "/r/a.go"}},             // 0
		{Tool: "Edit", Args: map[string]any{"file_path": "/r/a.go"}},             // 1
		{Tool: "Bash", Args: map[string]any{"command": "go test ./..."}},         // 2
		{Tool: "write_file", Args: map[string]any{"path": "r/b.go"}},             // 3
		{Tool: "Edit", Args: map[string]any{"file_path": "/r/a.go", "n": 1.0}},   // 4
		{Tool: "Bash", Args: map[string]any{"command": "ls"}},                    // 5
		{Tool: "Grep", Args: map[string]any{"pattern": "x"}},                     // 6
		{Tool: "Grep", Args: map[string]any{"pattern": "x"}},                     // 7
		{Tool: "Grep", Args: map[string]any{"pattern": "x"}, Result: []any{"a"}}, // 8
	} {
		s.Record(c)
	}
	s.MarkFired("some_rule", 4)
	call := rules.Call{Tool: "Edit", Args: map[string]any{"file_path": "/r/a.go"}}
	for _, expr := range []string{
		"size(session) == 9 && session.size() == 9",
		"session.count('edit') == 3", // Edit, write_file, Edit
		"session.count('Edit') == 2", // a tool
		"session.count('read') == 4", // Read, 3 Grep
		"session.count('nothing') == 0",
		"session.last('bash') == 5",
		"session.last('nothing') == -1",
		"session.since('bash') == 3",    // calls 6, 7, 8
		"session.since('nothing') == 9", // never: the whole session
		"session.since('Grep') == 0",
		"session.countAfter('edit', 2) == 2",
		"session.countAfter('edit', -1) == 3",
		"session.countAfter('edit', 100) == 0",
		"session.countAfter('edit', -100) == 3",
		"session.hasPath('read', '/r/a.go')",
		"session.hasPath('read', call.path)",
		"!session.hasPath('read', 'r/b.go')",
		"session.hasPath('edit', 'r/b.go')",
		"!session.hasPath('edit', '')",
		"session.lastPath('edit', '/r/a.go') == 4",
		"session.lastPath('edit', '/r/c.go') == -1",
		"session.lastMatch('bash', 'command', r'\\bgo test\\b') == 2",
		"session.lastMatch('bash', 'command', 'nomatch') == -1",
		"session.lastMatch('Grep', 'pattern', '^x$') == 8",
		"session.call(0).tool == 'Read' && session.call(0).index == 0",
		"session.call(-1).tool == 'Grep' && session.call(-1).index == 8",
		"session.call(-1).result == ['a']",
		"session.call(1).path == '/r/a.go' && session.call(1).families == ['edit']",
		"session.call(6).fingerprint == session.call(7).fingerprint",
		"session.call(1).fingerprint != session.call(4).fingerprint",
		"session.lastFired('some_rule') == 4",
		"session.lastFired('other') == -1",
	} {
		if !evalExpr(t, expr, call, s) {
			t.Errorf("%s: false", expr)
		}
	}
	// streak counts identical calls (tool and arguments) at the end; the
	// result does not count.
	if !evalExpr(t, "session.streak() == 3", call, s) {
		// 6, 7, 8 share tool and arguments.
		t.Errorf("streak: want 3")
	}
}

func TestLastMatchIsIncremental(t *testing.T) {
	s := &rules.Session{}
	const expr = "size(session) > 0 && session.lastMatch('bash', 'command', 'pytest') == session.size() - 1"
	e := mustCompile(t, rule("x", "*", rules.Warn, &rules.Condition{Type: rules.Expr, Expr: expr}))
	for i := range 50 {
		cmd := "ls"
		if i%7 == 0 {
			cmd = "pytest -q"
		}
		c := rules.Call{Tool: "Bash", Args: map[string]any{"command": cmd, "i": float64(i)}}
		v := e.Evaluate(rules.Pre, rules.Call{Tool: "Read"}, s)
		want := i > 0 && (i-1)%7 == 0
		if got := len(v.Fired) == 1; got != want {
			t.Fatalf("before call %d: fired %v, want %v (%v)", i, got, want, v.Errors)
		}
		s.Record(c)
	}
}

func TestFingerprint(t *testing.T) {
	s := &rules.Session{}
	s.Record(rules.Call{Tool: "T", Args: map[string]any{"a": 1.0, "b": []any{"x", map[string]any{"k": true}}}})
	s.Record(rules.Call{Tool: "T", Args: map[string]any{"b": []any{"x", map[string]any{"k": true}}, "a": int64(1)}})
	s.Record(rules.Call{Tool: "T", Args: map[string]any{"b": []any{"x", map[string]any{"k": false}}, "a": 1.0}})
	s.Record(rules.Call{Tool: "U", Args: map[string]any{"b": []any{"x", map[string]any{"k": false}}, "a": 1.0}})
	call := rules.Call{Tool: "x"}
	for _, expr := range []string{
		"session.call(0).fingerprint == session.call(1).fingerprint",
		"session.call(1).fingerprint != session.call(2).fingerprint",
		"session.call(2).fingerprint != session.call(3).fingerprint",
		"size(session.call(0).fingerprint) == 16",
	} {
		if !evalExpr(t, expr, call, s) {
			t.Errorf("%s: false", expr)
		}
	}
}

func TestSessionJSONL(t *testing.T) {
	s := &rules.Session{}
	s.Record(rules.Call{Tool: "Read", Args: map[string]any{"file_path": "/r/a.go"}, Result: "package a"})
	s.Record(rules.Call{Tool: "Bash", Args: map[string]any{"command": "go test"}})
	s.Record(rules.Call{Tool: "Bash", Args: map[string]any{"command": "go test"}})
	s.MarkFired("b", 2)
	s.MarkFired("a", 1)
	var buf bytes.Buffer
	if err := s.WriteJSONL(&buf); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 5 || lines[3] != `{"fired":"a","index":1}` || lines[4] != `{"fired":"b","index":2}` {
		t.Errorf("unexpected JSONL:\n%s", buf.String())
	}
	if !strings.HasPrefix(lines[0], `{"tool":"Read","path":"/r/a.go","fingerprint":"`) ||
		!strings.HasSuffix(lines[0], `,"size":67,"crc32c":1647249707,"args_size":23,"call":{"args":{"file_path":"/r/a.go"},"tool":"Read","result":"package a"}}`) {
		t.Errorf("call line: %s", lines[0])
	}
	for _, l := range lines {
		if !json.Valid([]byte(l)) {
			t.Errorf("not JSON: %s", l)
		}
	}
	back, err := rules.ReadSession(&buf)
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	if err := back.WriteJSONL(&again); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(strings.Join(lines, "\n")+"\n", again.String()); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	if !evalExpr(t, "session.streak() == 2 && session.count('bash') == 2 && session.lastFired('a') == 1", rules.Call{Tool: "x"}, back) {
		t.Error("restored session lost its aggregates")
	}
}

func TestReadSessionCorruptLines(t *testing.T) {
	one := &rules.Session{}
	one.Record(rules.Call{Tool: "Read", Args: map[string]any{"file_path": "/r/a.go"}, Result: "package a"})
	var gb bytes.Buffer
	if err := one.WriteJSONL(&gb); err != nil {
		t.Fatal(err)
	}
	good := strings.TrimSpace(gb.String())
	src := strings.Join([]string{
		`{"call":{"tool":"Read","args":{"file_path":"a"}}}`,
		`{"call":{"tool":"Edit","args":{"file_path":"a"}`, // torn write
		``,
		`{"fired":"x"}`,        // no index
		`{"call":{"args":{}}}`, // no tool
		`{"call":{"tool":"Read"},"fired":"x","index":1}`, // both
		`{"bogus":1}`,
		`[1,2]`,
		`{"call":{"tool":"Bash","args":{"command":"ls"}}}`,
		strings.Repeat("x", rules.MaxSessionLineBytes+10),
		`{"fired":"r","index":1}`,
		good[:len(good)-5],                                 // torn fast-path line
		strings.Replace(good, "package a", "package b", 1), // edited
		strings.Replace(good, `"tool":"Read","path"`, `"tool":"","path"`, 1),
		good,
	}, "\n")
	s, err := rules.ReadSession(strings.NewReader(src))
	var ce *rules.CorruptLinesError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want *CorruptLinesError", err)
	}
	var got []int
	for _, l := range ce.Lines {
		got = append(got, l.Line)
	}
	if diff := cmp.Diff([]int{2, 4, 5, 6, 7, 8, 10, 12, 13, 14}, got); diff != "" {
		t.Errorf("corrupt lines (-want +got):\n%s\n%v", diff, err)
	}
	if s.Len() != 3 {
		t.Errorf("read %d calls, want 3", s.Len())
	}
	if i, ok := s.LastFired("r"); !ok || i != 1 {
		t.Errorf("fired line after the corrupt ones not read")
	}
	if !strings.Contains(err.Error(), "10 corrupt lines skipped (the other lines were read); line 2: ") {
		t.Errorf("message: %v", err)
	}
}

func TestRecordCapsHistory(t *testing.T) {
	s := &rules.Session{}
	long := strings.Repeat("é", rules.MaxHistoryStringBytes) // 2 bytes each
	s.Record(rules.Call{Tool: "Write", Args: map[string]any{"content": long, "file_path": "/f"}, Result: long})
	c, ok := s.Call(0)
	if !ok {
		t.Fatal("no call 0")
	}
	got := c.Args["content"].(string)
	if len(got) > rules.MaxHistoryStringBytes || !strings.HasPrefix(long, got) || len(got) < rules.MaxHistoryStringBytes-1 {
		t.Errorf("history string is %d bytes", len(got))
	}
	if len(c.Result.(string)) > rules.MaxHistoryStringBytes {
		t.Errorf("result not cut")
	}
	if _, ok := s.Call(1); ok {
		t.Error("Call(1) of a one-call session")
	}
}

func TestHugeInput(t *testing.T) {
	e := builtinEngine(t, "coding")
	huge := strings.Repeat("a", 20<<20) + "sk-abcdefghijklmnopqrstuvwxyz"
	var deep any = "bottom"
	for range 100000 {
		deep = map[string]any{"d": deep}
	}
	wide := make([]any, 1_000_000)
	for i := range wide {
		wide[i] = float64(i)
	}
	wideMap := make(map[string]any, 200000)
	for i := range 200000 {
		wideMap[fmt.Sprint(i)] = "v"
	}
	s := &rules.Session{}
	s.Record(rules.Call{Tool: "Read", Args: map[string]any{"file_path": "/r/a.go"}})
	calls := []rules.Call{
		{Tool: "Edit", Args: map[string]any{"file_path": "/r/a.go", "new_string": huge}},
		{Tool: "Edit", Args: map[string]any{"file_path": "/r/a.go", "new_string": "x", "deep": deep}},
		{Tool: "Bash", Args: map[string]any{"command": "ls", "wide": wide}},
		{Tool: "Write", Args: map[string]any{"file_path": "/r/b.go", "content": "x", "m": wideMap}},
		{Tool: strings.Repeat("T", 1<<20), Args: map[string]any{"x": "y"}},
	}
	// Every one is past a limit: denied, fast, without running a rule.
	for i, c := range calls {
		v := e.Evaluate(rules.Pre, c, s)
		if v.Decision != rules.Blocked || len(v.Fired) != 1 || v.Fired[0].Rule != rules.FailClosedRule {
			t.Errorf("call %d: %+v", i, v.Fired)
		}
	}
	// A result past the limits is cut: phase post decides nothing, and
	// the history keeps its first bytes.
	ok := rules.Call{Tool: "Read", Args: map[string]any{"file_path": "/r/c.go"}, Result: wide}
	if v := e.Evaluate(rules.Post, ok, s); v.Decision != rules.Allowed {
		t.Errorf("post: %+v", v)
	}
	s.Record(ok)
	s.Record(calls[0])
	// Within the limit, the whole string is judged: a secret at its end
	// is seen.
	near := strings.Repeat("a", rules.MaxStringBytes-100) + " sk-abcdefghijklmnopqrstuvwxyz"
	v := e.Evaluate(rules.Pre, rules.Call{Tool: "Edit", Args: map[string]any{"file_path": "/r/a.go", "new_string": near}}, s)
	if v.Decision != rules.Blocked || !strings.Contains(strings.Join(fired(v), " "), "no_secrets_in_code") {
		t.Errorf("a secret within MaxStringBytes was not seen: %v %v", fired(v), v.Errors)
	}
	// With errors allowed, a call past the limits is judged on its part
	// within them, and the verdict says so.
	e.SetOnError(rules.OnErrorAllow)
	v = e.Evaluate(rules.Pre, calls[0], s)
	if v.Decision != rules.Allowed || len(v.Notes) == 0 || !strings.Contains(v.Notes[0], "judged on the part within the limits") {
		t.Errorf("OnErrorAllow: %+v", v)
	}
}

type customArg struct {
	Name string `json:"name"`
	N    int    `json:"n"`
}

func TestGoTypedArgs(t *testing.T) {
	e := mustCompile(t,
		rule("typed", "*", rules.Warn, &rules.Condition{Type: rules.Expr,
			Expr: "call.args.s.name == 'x' && call.args.i == 3 && call.args.u == 4u && call.args.f == 1.5 && call.args.l == ['a']"}),
		rule("field", "*", rules.Warn, &rules.Condition{Type: rules.Contains, Field: "s.name", Substring: "x"}),
	)
	v := e.Evaluate(rules.Pre, rules.Call{Tool: "x", Args: map[string]any{
		"s": customArg{Name: "x", N: 2}, "i": 3, "u": uint8(4), "f": float32(1.5), "l": []string{"a"}, "ch": make(chan int),
	}}, nil)
	if diff := cmp.Diff([]string{"field", "typed"}, fired(v)); diff != "" || len(v.Errors) > 0 {
		t.Errorf("(-want +got):\n%s%v", diff, v.Errors)
	}
}

// FuzzReadSession feeds arbitrary bytes to the session reader: it never
// panics, and what it read evaluates and writes back.
func FuzzReadSession(f *testing.F) {
	s := &rules.Session{}
	s.Record(rules.Call{Tool: "Read", Args: map[string]any{"file_path": "/a"}, Result: "x"})
	s.Record(rules.Call{Tool: "Bash", Args: map[string]any{"command": "pytest"}})
	s.MarkFired("r", 1)
	var buf bytes.Buffer
	s.WriteJSONL(&buf)
	f.Add(buf.Bytes())
	f.Add([]byte(`{"tool":"x","fingerprint":"f","size":2,"crc32c":0,"args_size":1,"call":{}}`))
	f.Add([]byte("{\"call\":{\"tool\":\"a\",\"args\":{\"file_path\":7}}}\n\n{\"fired\":\"x\",\"index\":-1}"))
	e := mustCompile(f,
		rule("x", "*", rules.Warn, &rules.Condition{Type: rules.Expr, Expr: "size(session) > 0 && session.call(-1).result != null && session.lastMatch('Bash', 'command', 'py') >= 0"}),
		rule("y", "*", rules.Warn, &rules.Condition{Type: rules.Expr, Expr: "session.hasPath('Read', '/a') || session.streak() > 1"}))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, _ := rules.ReadSession(bytes.NewReader(data))
		e.Evaluate(rules.Pre, rules.Call{Tool: "Read"}, s)
		var out bytes.Buffer
		if err := s.WriteJSONL(&out); err != nil {
			t.Fatal(err)
		}
		back, err := rules.ReadSession(&out)
		if err != nil || back.Len() != s.Len() {
			t.Fatalf("written session does not read back: %v (%d of %d calls)\n%s", err, back.Len(), s.Len(), out.String())
		}
	})
}

func TestRecordCopies(t *testing.T) {
	s := &rules.Session{}
	args := map[string]any{"file_path": "/a", "list": []any{"x"}}
	s.Record(rules.Call{Tool: "Read", Args: args})
	args["file_path"] = "/b"
	args["list"].([]any)[0] = "y"
	c, _ := s.Call(0)
	if c.Args["file_path"] != "/a" || c.Args["list"].([]any)[0] != "x" {
		t.Errorf("the session shares the caller's arguments: %v", c.Args)
	}
}

func TestReadSessionPlainCalls(t *testing.T) {
	in := `{"tool":"Read","args":{"file_path":"a.go"}}
not json
{"tool":"Edit","args":{"file_path":"a.go"},"result":"ok"}
`
	s, err := rules.ReadSession(strings.NewReader(in))
	var ce *rules.CorruptLinesError
	if !errors.As(err, &ce) || len(ce.Lines) != 1 || ce.Lines[0].Line != 2 {
		t.Fatalf("err = %v, want line 2 reported", err)
	}
	if s.Len() != 2 {
		t.Fatalf("session has %d calls, want 2 (the corrupt line skipped)", s.Len())
	}
	if c, _ := s.Call(1); c.Tool != "Edit" || c.Result != "ok" {
		t.Errorf("second call = %+v", c)
	}
}
