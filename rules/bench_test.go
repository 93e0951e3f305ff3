package rules_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/charter-dev/charter/rules"
)

// codingSession builds a realistic session of n calls: reads, edits, greps,
// bash commands (with an occasional test run) and a sub-agent dispatch.
func codingSession(n int) *rules.Session {
	s := &rules.Session{}
	for i := range n {
		var c rules.Call
		file := fmt.Sprintf("/repo/pkg%d/file%d.go", i%13, i%41)
		switch i % 10 {
		case 0, 1, 2:
			c = rules.Call{Tool: "Read", Args: map[string]any{"file_path": file}, Result: "package x\n\nfunc F() {}\n"}
		case 3, 4, 5:
			c = rules.Call{Tool: "Edit", Args: map[string]any{"file_path": file, "old_string": fmt.Sprint("a", i), "new_string": fmt.Sprint("b", i)}, Result: "ok"}
		case 6:
			c = rules.Call{Tool: "Grep", Args: map[string]any{"pattern": fmt.Sprint("func F", i)}, Result: file}
		case 7:
			cmd := "git status"
			if i%30 == 7 {
				cmd = "go test ./..."
			}
			c = rules.Call{Tool: "Bash", Args: map[string]any{"command": cmd}, Result: "ok"}
		case 8:
			c = rules.Call{Tool: "Write", Args: map[string]any{"file_path": file + "_new.go", "content": "package x\n"}, Result: "ok"}
		case 9:
			c = rules.Call{Tool: "Glob", Args: map[string]any{"pattern": "**/*.go"}, Result: []any{file}}
		}
		if i == n/2 {
			c = rules.Call{Tool: "Agent", Args: map[string]any{"prompt": "review"}}
		}
		s.Record(c)
	}
	return s
}

// BenchmarkEvaluateCoding1000 judges one call, both phases (Pre, then Post
// with its result), against the built-in coding profile (dev + coding) with
// a 1,000-call session. The call cycles through an Edit, a Bash command, a
// Read and a Write, so every kind of rule runs.
func BenchmarkEvaluateCoding1000(b *testing.B) {
	e := builtinEngine(b, "coding")
	s := codingSession(1000)
	calls := []rules.Call{
		{Tool: "Edit", Args: map[string]any{"file_path": "/repo/pkg1/file1.go", "old_string": "x", "new_string": "y"}, Result: "ok"},
		{Tool: "Bash", Args: map[string]any{"command": "cat /repo/pkg1/file1.go"}, Result: "ok"},
		{Tool: "Read", Args: map[string]any{"file_path": "/repo/pkg2/file9.go"}, Result: "package x"},
		{Tool: "Write", Args: map[string]any{"file_path": "/repo/new.go", "content": "package x\n"}, Result: "ok"},
	}
	// Warm the cached scans, as a running session has.
	for _, c := range calls {
		e.Evaluate(rules.Pre, c, s)
		e.Evaluate(rules.Post, c, s)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		c := calls[i%len(calls)]
		i++
		pre := e.Evaluate(rules.Pre, rules.Call{Tool: c.Tool, Args: c.Args}, s)
		post := e.Evaluate(rules.Post, c, s)
		if len(pre.Errors)+len(post.Errors) > 0 {
			b.Fatal(pre.Errors, post.Errors)
		}
	}
}

// BenchmarkRecord measures Session.Record of one call.
func BenchmarkRecord(b *testing.B) {
	s := codingSession(1000)
	c := rules.Call{Tool: "Edit", Args: map[string]any{"file_path": "/repo/a.go", "old_string": "x", "new_string": "y"}, Result: "ok"}
	b.ReportAllocs()
	for b.Loop() {
		s.Record(c)
	}
}

// BenchmarkCompileCoding measures compiling the coding profile, which a
// hook process pays on every call.
func BenchmarkCompileCoding(b *testing.B) {
	p := builtin(b, "coding")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := rules.Compile(p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadSession1000 measures loading a saved 1,000-call session
// whose reads returned whole files (as Claude Code's Read does) and whose
// writes carry file contents.
func BenchmarkReadSession1000(b *testing.B) {
	s := &rules.Session{}
	file := strings.Repeat("func F() { return 42 }\n", 200) // 4.8 KB
	for i := range 1000 {
		p := fmt.Sprintf("/repo/pkg%d/file%d.go", i%13, i%41)
		switch i % 4 {
		case 0:
			s.Record(rules.Call{Tool: "Read", Args: map[string]any{"file_path": p},
				Result: map[string]any{"type": "text", "file": map[string]any{"filePath": p, "content": file, "numLines": 200.0}}})
		case 1:
			s.Record(rules.Call{Tool: "Edit", Args: map[string]any{"file_path": p, "old_string": file[:300], "new_string": file[:310]},
				Result: map[string]any{"filePath": p, "oldString": file[:300], "newString": file[:310], "structuredPatch": []any{}}})
		case 2:
			s.Record(rules.Call{Tool: "Bash", Args: map[string]any{"command": "go test ./...", "description": "run tests"},
				Result: map[string]any{"stdout": file[:2000], "stderr": "", "interrupted": false}})
		case 3:
			s.Record(rules.Call{Tool: "Write", Args: map[string]any{"file_path": p, "content": file[:2000]}, Result: map[string]any{"type": "create"}})
		}
	}
	var buf bytes.Buffer
	if err := s.WriteJSONL(&buf); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := rules.ReadSession(bytes.NewReader(buf.Bytes())); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzEvaluate feeds arbitrary JSON arguments and results to every built-in
// profile: Evaluate, Record and the session log must never panic.
func FuzzEvaluate(f *testing.F) {
	f.Add("Edit", []byte(`{"file_path":"/a","new_string":"sk-aaaaaaaaaaaaaaaaaaaaaaaa"}`), []byte(`"ok"`))
	f.Add("Bash", []byte(`{"command":"rm -rf /"}`), []byte(`null`))
	f.Add("MultiEdit", []byte(`{"edits":[{"new_string":1},"x",null]}`), []byte(`[1,{"a":[]}]`))
	f.Add("send_email", []byte(`{"to":[1,2,3,4,5,6,7]}`), []byte(`{}`))
	f.Add("query", []byte(`{"query":{"nested":true}}`), []byte(`1e308`))
	f.Add("Read", []byte(`{"file_path":["not","a","string"],"path":7}`), []byte(`""`))
	engines := map[string]*rules.Engine{}
	for _, name := range builtinProfiles {
		engines[name] = builtinEngine(f, name)
	}
	f.Fuzz(func(t *testing.T, tool string, args, result []byte) {
		var a map[string]any
		_ = json.Unmarshal(args, &a)
		var r any
		_ = json.Unmarshal(result, &r)
		for _, name := range builtinProfiles {
			e := engines[name]
			s := &rules.Session{}
			for range 3 {
				c := rules.Call{Tool: tool, Args: a, Result: r}
				pre := e.Evaluate(rules.Pre, rules.Call{Tool: tool, Args: a}, s)
				if pre.Decision != rules.Blocked {
					e.Evaluate(rules.Post, c, s)
					s.Record(c)
				}
			}
			var buf bytes.Buffer
			if err := s.WriteJSONL(&buf); err != nil {
				t.Fatal(err)
			}
			back, err := rules.ReadSession(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatalf("session does not read back: %v\n%s", err, buf.String())
			}
			if back.Len() != s.Len() {
				t.Fatalf("read back %d calls, wrote %d", back.Len(), s.Len())
			}
		}
	})
}
