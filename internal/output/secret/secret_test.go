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
	google = "AIza" + "SyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW"
	stripe = "sk_live_" + "51H8xYzAbCdEfGhIjKlMnOpQr"
	jwt    = "eyJhbGciOiJIUzI1NiJ9" + ".eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	awsKey = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
)

// TestShapes: each shape is found where it stands alone, in prose, in
// JSON, and nothing is found in what only resembles one.
func TestShapes(t *testing.T) {
	for _, c := range []struct {
		text, want string // want: the value Find must find ("" for none)
	}{
		{google, google},
		{"key=" + google + ";", google},
		{stripe, stripe},
		{"rk_live_" + "51H8xYzAbCdEfGhIjKl", "rk_live_51H8xYzAbCdEfGhIjKl"},
		{"sk_test_" + "4eC39HqLyjWDarjtT1zdp7dc", "sk_test_4eC39HqLyjWDarjtT1zdp7dc"},
		{"Bearer " + jwt + ".", jwt},
		{`"` + awsKey + `"`, awsKey},
		{"aws " + awsKey + " end", awsKey},
		{"AWS_SECRET_ACCESS_KEY=" + awsKey + "\n", awsKey},
		{awsKey + "==", ""},
		{"https://bob:s3cr3t-Pa55@db.example.com/x", "s3cr3t-Pa55"},
		{"postgres://app:hunter2@localhost:5432/app", "hunter2"},
		{"github_pat_" + "11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz"},
		{"sk-ant-" + "api03-abcdefghijklmnopqrstuvwxyz0123", "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123"},
		// Not credentials.
		{"https://example.com:8443/path", ""},
		{"https://user@example.com/path", ""},
		{"https://bob:${DB_PASSWORD}@db.example.com", ""},
		{"https://bob:DB_PASSWORD@db.example.com", ""},
		{"commit 0123456789abcdef0123456789abcdef01234567", ""},
		{"a sentence of words, which is not at all a key of any kind", ""},
		{"sha256-" + "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=", ""},
		{"kid weAMFz2I0Dkg2I2U5PagoVaqzpuJVAZ2aE5QMWWUj4c", ""},
		{"path/to/some/file/in/the/repository/x.cue", ""},
		{"/tmp/TestErrorKinds437786812/001/charter.cue", ""},
		{"tmp/TestErrorKinds437786812/001/charter/a.cue", ""},
		{"AIzaNotAKey", ""},
		{"desk_live_music", ""},
		{"eyJhbGciOiJIUzI1NiJ9", ""},
	} {
		ms := Find(c.text)
		got := ""
		if len(ms) > 0 {
			got = c.text[ms[0].Start:ms[0].End]
		}
		if got != c.want {
			t.Errorf("Find(%q) finds %q, want %q", c.text, got, c.want)
		}
		if c.want != "" && !MayContain(c.text) {
			t.Errorf("MayContain(%q) = false", c.text)
		}
	}
	if got := Redact("https://bob:hunter2@db.example.com"); !strings.HasPrefix(got, "https://bob:…[7 chars ") || !strings.HasSuffix(got, "]@db.example.com") {
		t.Errorf("Redact(URL) = %q, want the password alone redacted", got)
	}
}

func TestRedactEveryShape(t *testing.T) {
	for _, v := range []string{github, aws, openai, slack, pem, google, stripe, jwt, awsKey} {
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
	for _, s := range []string{github, pem, "x " + aws + " y", openai, slack, "-----BEGIN", google, stripe, jwt, awsKey, "https://u:p@h"} {
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

// MayContain agrees with its definition (some shape's prefix occurs in s,
// or the AWS secret key shape finds a value) on any input.
func FuzzMayContain(f *testing.F) {
	for _, s := range []string{"", "sk-", "a ghp_x", "-----BEGIN RSA", "xox", "AKIAx", "github_pat", "prose with no key", awsKey, "=" + awsKey, awsKey + "x", "\\n" + strings.Repeat("a", 40), "\\n\\t\\u0001" + strings.Repeat("a", 40)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := false
		for _, k := range Shapes {
			if k.find != nil {
				want = want || len(k.find(s)) > 0
				continue
			}
			want = want || strings.Contains(s, k.Prefix)
		}
		if got := MayContain(s); got != want && !(got && !want && awsRun(s)) {
			t.Errorf("MayContain(%q) = %v, want %v", s, got, want)
		}
	})
}

// awsRun reports whether s holds a run of exactly 40 base64 characters:
// MayContain, a quick test, may say true for it whether or not the run
// looks like a key.
func awsRun(s string) bool {
	run := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && awsChar[s[i]] {
			if n := escapeRest(s, i); run == 0 && n > 0 {
				// An escape's letters (\n, \u0001) are no part of a run.
				i += n - 1
				continue
			}
			run++
			continue
		}
		if run == 40 {
			return true
		}
		run = 0
	}
	return false
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

// A credential right after an escape in JSON text (\n, \t, \", \u0001) is
// found, and its redaction leaves the escape whole: the output Writer
// redacts charter's JSON answers line by line, and there "\nghp_..." was
// not a word's start (so the token went out in clear), and a key-like
// run "nXXX..." of 40 was redacted from the n on, leaving "\…", which is
// not JSON: Claude Code read the hook's deny so written as no answer and
// ran the call (testdata/script/hook_claude_redaction.txtar).
func TestRedactJSONEscapes(t *testing.T) {
	keyLike := "bCdEfGhIjKlMnOpQrStUvWxYz0123456789++A1" // 39: with the n of \n, 40
	for _, v := range []string{github, aws, openai, slack, google, stripe, jwt, awsKey, keyLike} {
		for _, before := range []string{"\n", "\t", "\r", "\b", "\f", "\"", "\\", "\u0001", "x\n", "\u2028"} {
			text := mustJSON(t, map[string]string{"reason": before + v + "\n"})
			got := Redact(text)
			var back map[string]string
			if err := json.Unmarshal([]byte(got), &back); err != nil {
				t.Errorf("Redact(%s) = %s: not JSON (%v)", text, got, err)
				continue
			}
			if v != keyLike && strings.Contains(got, secretPart(v)) {
				t.Errorf("Redact(%s) = %s: the credential is still there", text, got)
			}
		}
	}
	// Through the Writer, as every command's output goes.
	var b bytes.Buffer
	w := NewWriter(&b)
	w.Write([]byte(mustJSON(t, map[string]string{"a": "\n" + awsKey, "b": "\t" + github}) + "\n"))
	w.Flush()
	if strings.Contains(b.String(), secretPart(awsKey)) || strings.Contains(b.String(), secretPart(github)) || !json.Valid(bytes.TrimSpace(b.Bytes())) {
		t.Errorf("the Writer wrote %s", b.String())
	}
}
