package secret

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// Test credentials: shaped like real ones, valid for nothing.
var (
	github = "ghp_" + strings.Repeat("A1b2C3d4E5", 3) + "f6G7h8"
	aws    = "AKIA" + "IOSFODNN7EXAMPLE"
	openai = "sk-proj-" + strings.Repeat("Xy9", 10)
	slack  = "xoxb-" + "1234567890-abcdefghij"
	pem    = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx1y2z3w4v5u6t7s8r9q0p\nQ1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l\n-----END RSA PRIVATE KEY-----"
)

func TestRedactEveryShape(t *testing.T) {
	for _, v := range []string{github, aws, openai, slack, pem} {
		for _, text := range []string{
			v,
			"token: " + v + " here",
			mustJSON(t, map[string]string{"description": "see " + v}),
		} {
			got := Redact(text)
			if strings.Contains(got, secretPart(v)) {
				t.Errorf("Redact(%q) = %q: the value is still there", text, got)
			}
			if !strings.Contains(got, "…[") {
				t.Errorf("Redact(%q) = %q: no redacted form", text, got)
			}
		}
	}
}

// secretPart is the part of a credential that must never be printed.
func secretPart(v string) string {
	if strings.HasPrefix(v, "-----BEGIN") {
		return "MIIEowIBAAKCAQEAx1y2z3w4v5u6t7s8r9q0p"
	}
	return v[len(v)-12:]
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestRedactedShowsChange(t *testing.T) {
	a, b := Redacted(github), Redacted(github[:len(github)-1]+"Z")
	if a == b {
		t.Errorf("two tokens redact alike: %s", a)
	}
	if !strings.HasPrefix(a, "ghp_…[40 chars ") {
		t.Errorf("Redacted(github) = %s, want prefix, length and hash", a)
	}
	if Redact(a) != a {
		t.Errorf("a redacted form is redacted again: %s", Redact(a))
	}
	if p := Redacted(pem); Redact(p) != p {
		t.Errorf("a redacted key is redacted again: %s -> %s", p, Redact(p))
	}
}

func TestRedactLeavesProse(t *testing.T) {
	for _, s := range []string{"ask-questions-early-and-often-please", "task-decomposition", "the -----BEGIN of a story",
		"-----BEGIN RSA PRIVATE KEY-----\n\nNext paragraph stays."} {
		got := Redact(s)
		if strings.Contains(s, "Next") && !strings.Contains(got, "Next paragraph stays.") {
			t.Errorf("Redact(%q) = %q: ate the prose after a truncated key", s, got)
		}
		if !strings.Contains(s, "PRIVATE") && got != s {
			t.Errorf("Redact(%q) = %q, want it unchanged", s, got)
		}
	}
}

func TestWriterLineByLine(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for _, line := range strings.SplitAfter("description:\n"+pem+"\nafter\n", "\n") {
		w.Write([]byte(line))
	}
	out := buf.String()
	if strings.Contains(out, "MIIEow") || strings.Contains(out, "Q1w2e3") {
		t.Errorf("the key's body was printed:\n%s", out)
	}
	if !strings.Contains(out, "after\n") || !strings.Contains(out, "description:\n") {
		t.Errorf("text around the key was lost:\n%s", out)
	}
}

func TestIsLiteral(t *testing.T) {
	for _, c := range []struct {
		label, value string
		want         bool
	}{
		{"api_key", "hunter2hunter2", true},
		{"api_key", "env:SEARCH_API_KEY", false},
		{"token_pattern", "abcdefgh", false},
		{"description", github, true},
		{"description", "a plain sentence", false},
	} {
		if _, got := IsLiteral(c.label, c.value); got != c.want {
			t.Errorf("IsLiteral(%q, %q) = %v, want %v", c.label, c.value, got, c.want)
		}
	}
}

func FuzzRedact(f *testing.F) {
	for _, s := range []string{github, pem, "x " + aws + " y", openai, slack, "-----BEGIN"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := Redact(s)
		if Redact(r) != r {
			t.Errorf("Redact is not idempotent on %q: %q then %q", s, r, Redact(r))
		}
		if len(Find(r)) != 0 {
			t.Errorf("Redact(%q) = %q still holds a credential", s, r)
		}
	})
}

// A credential split across two writes (a bufio.Writer flushing every 4096
// bytes, text/template writing a literal and a value) is redacted as if
// written once: diag's text output printed a whole token that straddled
// its buffer's boundary.
func TestWriterSplitAcrossWrites(t *testing.T) {
	for _, v := range []string{github, aws, openai, slack} {
		line := "names no agent \"" + v + "\" here\n"
		for cut := 1; cut < len(line); cut++ {
			var buf bytes.Buffer
			w := NewWriter(&buf)
			w.Write([]byte(line[:cut]))
			w.Write([]byte(line[cut:]))
			if out := buf.String(); strings.Contains(out, secretPart(v)) || !strings.Contains(out, "…[") || !strings.HasSuffix(out, "here\n") {
				t.Fatalf("written in two parts cut at %d: %q", cut, out)
			}
		}
	}
}

// What follows the last line feed is written by Flush.
func TestWriterFlush(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	w.Write([]byte("first\nno line feed " + github))
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if out := buf.String(); strings.Contains(out, secretPart(github)) || !strings.HasPrefix(out, "first\nno line feed ghp_…[") {
		t.Errorf("got %q", out)
	}
}

// GitHub's other tokens (OAuth gho_, user-to-server ghu_, server-to-server
// ghs_ as GITHUB_TOKEN in Actions, refresh ghr_) are credentials as ghp_ is.
func TestGitHubTokens(t *testing.T) {
	for _, p := range []string{"gho_", "ghu_", "ghs_", "ghr_"} {
		v := p + strings.Repeat("A1b2C3d4E5", 3) + "f6G7h8"
		if _, ok := IsLiteral("description", "see "+v); !ok {
			t.Errorf("%s is not taken for a credential", v)
		}
		if got := Redact("see " + v + "."); got != "see "+p+"…"+got[len("see ")+len(p)+len("…"):] || strings.Contains(got, v[len(p):]) {
			t.Errorf("Redact(%q) = %q", v, got)
		}
	}
}

func TestRedactQuoted(t *testing.T) {
	for _, c := range []struct{ label, msg, want string }{
		{"api_key", `conflicting values "hunter2hunter2" and "env:KEY"`, `conflicting values "` + Redacted("hunter2hunter2") + `" and "env:KEY"`},
		{"description", `conflicting values "hunter2hunter2" and "x"`, `conflicting values "hunter2hunter2" and "x"`},
		{"password", `"a\"quoted\"pass" is wrong`, `"` + Redacted(`a"quoted"pass`) + `" is wrong`},
	} {
		if got := RedactQuoted(c.label, c.msg); got != c.want {
			t.Errorf("RedactQuoted(%q, %q) = %q, want %q", c.label, c.msg, got, c.want)
		}
	}
}

// MayContain agrees with its definition (some shape's prefix occurs in s)
// on any input.
func FuzzMayContain(f *testing.F) {
	for _, s := range []string{"", "sk-", "a ghp_x", "-----BEGIN RSA", "xox", "AKIAx", "github_pat", "prose with no key"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := false
		for _, k := range Shapes {
			want = want || strings.Contains(s, k.Prefix)
		}
		if got := MayContain(s); got != want {
			t.Errorf("MayContain(%q) = %v, want %v", s, got, want)
		}
	})
}

func BenchmarkMayContain(b *testing.B) {
	lines := []string{
		"agents/a0001.cue:46:79: warning: [tool-permission-unprovided] agents.a0001.tools.denied[0]: tool \"deploy\" is not provided by any of the agent's behaviors",
		"Senior", "personal_assistant", "warm and thorough", "example-provider", "React for a0000",
	}
	for b.Loop() {
		for _, l := range lines {
			MayContain(l)
		}
	}
}
