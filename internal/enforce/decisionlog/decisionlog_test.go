package decisionlog

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func write(t *testing.T, l *Log, n int, input any) {
	t.Helper()
	for i := range n {
		err := l.Write(Record{DecisionID: "d", Time: time.Unix(int64(i), 0).UTC(), Agent: Agent{ID: "marco"}, Tool: "run_bash", Phase: "pre", Decision: "allow", Rules: []Rule{}, Input: input})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func verify(t *testing.T, files ...string) *Report {
	t.Helper()
	r, err := Verify(files, OpenFile)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestChain(t *testing.T) {
	p := filepath.Join(t.TempDir(), "d.jsonl")
	l, err := Open(p, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	write(t, l, 3, nil)
	l.Close()
	// A restart goes on with the chain.
	l, err = Open(p, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	write(t, l, 2, nil)
	l.Close()
	if r := verify(t, p); r.Records != 5 || r.First != 1 || r.Last != 5 || len(r.Problems) != 0 {
		t.Fatalf("%+v", r)
	}
	b, _ := os.ReadFile(p)
	lines := strings.SplitAfter(string(b), "\n")
	// A record deleted, edited, or two swapped: each breaks the chain.
	for name, text := range map[string]string{
		"deleted": lines[0] + lines[1] + lines[3] + lines[4],
		"edited":  lines[0] + strings.Replace(lines[1], `"allow"`, `"deny"`, 1) + lines[2] + lines[3] + lines[4],
		"swapped": lines[0] + lines[2] + lines[1] + lines[3] + lines[4],
	} {
		os.WriteFile(p, []byte(text), 0o600)
		if r := verify(t, p); len(r.Problems) == 0 {
			t.Errorf("%s: the chain holds: %+v", name, r)
		}
	}
}

func TestRotation(t *testing.T) {
	p := filepath.Join(t.TempDir(), "d.jsonl")
	l, err := Open(p, 2000, 3)
	if err != nil {
		t.Fatal(err)
	}
	write(t, l, 40, nil)
	l.Close()
	var files []string
	for i := 3; i >= 1; i-- {
		f := p + "." + string(rune('0'+i))
		if _, err := os.Stat(f); err == nil {
			files = append(files, f)
		}
	}
	if len(files) != 3 {
		t.Fatalf("%d rotated files, want 3", len(files))
	}
	files = append(files, p)
	for _, f := range files {
		if fi, _ := os.Stat(f); fi.Size() > 2000 {
			t.Errorf("%s has %d bytes, over the limit", f, fi.Size())
		}
	}
	// The chain runs across the files.
	r := verify(t, files...)
	if len(r.Problems) != 0 || r.Last != 40 {
		t.Errorf("%+v", r)
	}
}

func TestRedacted(t *testing.T) {
	p := filepath.Join(t.TempDir(), "d.jsonl")
	l, err := Open(p, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	key := "ghp_" + strings.Repeat("aB3dE5fG7h", 3) + "123456"
	write(t, l, 1, map[string]any{"command": "curl -H 'Authorization: token " + key + "' x", "password": "hunter2hunter2"})
	l.Close()
	b, _ := os.ReadFile(p)
	if bytes.Contains(b, []byte(key)) || bytes.Contains(b, []byte("hunter2hunter2")) {
		t.Errorf("a credential reached the log: %s", b)
	}
	if r := verify(t, p); len(r.Problems) != 0 {
		t.Errorf("%+v", r)
	}
}

func TestVerifyNotALog(t *testing.T) {
	r, err := Verify([]string{"x"}, func(string) (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader("hello\n")), nil
	})
	if err != nil || len(r.Problems) != 1 {
		t.Errorf("%+v %v", r, err)
	}
}

// What an agent puts in a call's input cannot make a record that is not
// JSON: a credential shape that follows an escape (a newline, a tab, a
// quote) is redacted in the value, not in the encoded line, where the
// redaction would cut the escape in two ("\…"). Such a line broke the
// chain for verify-log, hid the record from whatever reads the log, and,
// as the last line, stopped the server from starting again.
func TestRedactionKeepsJSON(t *testing.T) {
	p := filepath.Join(t.TempDir(), "d.jsonl")
	l, err := Open(p, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	aws := "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789+/A1"
	gh := "ghp_" + strings.Repeat("aB3dE5fG7h", 3) + "123456"
	for _, in := range []string{"\n" + aws, "x\t" + aws, "\"" + aws, "\\" + aws, "\u0001" + aws, "\n" + gh} {
		if err := l.Write(Record{Tool: "run_bash\n" + aws, Session: "s\r" + aws, Reason: "\n" + aws,
			Rules: []Rule{{Rule: "r", Action: "block", Message: "\t" + gh}},
			Input: map[string]any{"command": in, "list": []any{in}, "\n" + aws: 1}}); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	b, _ := os.ReadFile(p)
	if bytes.Contains(b, []byte(aws)) || bytes.Contains(b, []byte(gh)) {
		t.Errorf("a credential reached the log:\n%s", b)
	}
	if r := verify(t, p); len(r.Problems) != 0 || r.Records != 6 {
		t.Errorf("the log does not verify: %+v\n%s", r, b)
	}
	l, err = Open(p, 0, 1)
	if err != nil {
		t.Fatalf("the server could not start again on its log: %v", err)
	}
	l.Close()
}
