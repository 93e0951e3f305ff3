// Package secret is charter's one credential detector. Lint's
// secret-literal rule asks it which literals are credentials; every command
// writes its output through a Writer, which replaces each credential-shaped
// value by its redacted form (Redacted), so that no format of any command
// prints one. build refuses a bundle that would carry one (lint's finding).
//
// The redacted form keeps what a reviewer needs to see that a value
// changed, and nothing that helps use it: the credential's well-known
// prefix, "…", its length and the first 8 hex digits of its SHA-256, as in
// ghp_…[40 chars 1a2b3c4d].
package secret

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Shape is a well-known credential shape.
type Shape struct {
	// Prefix is a string every value of the shape contains; a text
	// without it is not searched with Pattern. Empty for a shape found
	// by find alone.
	Prefix string
	// What names the credential in a message ("a GitHub personal access
	// token").
	What    string
	pattern *lazyRegexp
	// group, when not 0, is the submatch of pattern that is the
	// credential (a URL's password); the rest of the match is context.
	group int
	// find, when set, finds the shape instead of pattern: the byte
	// offsets of each value in s.
	find func(s string) [][2]int
	// keep is how many bytes of a match the redacted form keeps.
	keep func(match string) int
}

// lazyRegexp is a regular expression compiled on first use: compiled in
// package initialisation, the detector's expressions cost every charter
// process at start, charter version included.
type lazyRegexp struct {
	re func() *regexp.Regexp
}

func lazy(src string) *lazyRegexp {
	return &lazyRegexp{re: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(src) })}
}

func fixed(n int) func(string) int { return func(string) int { return n } }

// Shapes are the credentials the detector knows, most specific first.
var Shapes = []*Shape{
	{Prefix: "-----BEGIN", What: "a PEM private key",
		// The header, the body (in text, or inside a JSON or CUE string with
		// \n escapes) and the footer when it is there.
		pattern: lazy(`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----(?:[A-Za-z0-9+/=\s:,\\-]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|(?:\s*(?:\\[nr])*[A-Za-z0-9+/=]{16,})*)`),
		keep: func(m string) int {
			// "-----BEGIN RSA PRIVATE KEY" without the closing dashes, so
			// that the redacted form is no longer a header.
			return strings.Index(m, "PRIVATE KEY") + len("PRIVATE KEY")
		}},
	{Prefix: "github_pat_", What: "a GitHub fine-grained access token", pattern: lazy(`github_pat_[A-Za-z0-9_]{22,}`), keep: fixed(len("github_pat_"))},
	{Prefix: "ghp_", What: "a GitHub personal access token", pattern: lazy(`ghp_[A-Za-z0-9]{30,}`), keep: fixed(len("ghp_"))},
	{Prefix: "gho_", What: "a GitHub OAuth access token", pattern: lazy(`gho_[A-Za-z0-9]{30,}`), keep: fixed(len("gho_"))},
	{Prefix: "ghu_", What: "a GitHub App user access token", pattern: lazy(`ghu_[A-Za-z0-9]{30,}`), keep: fixed(len("ghu_"))},
	// GITHUB_TOKEN in GitHub Actions is one.
	{Prefix: "ghs_", What: "a GitHub App installation token", pattern: lazy(`ghs_[A-Za-z0-9]{30,}`), keep: fixed(len("ghs_"))},
	{Prefix: "ghr_", What: "a GitHub refresh token", pattern: lazy(`ghr_[A-Za-z0-9]{30,}`), keep: fixed(len("ghr_"))},
	{Prefix: "sk-", What: "an OpenAI or Anthropic API key", pattern: lazy(`sk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}`),
		keep: func(m string) int {
			for _, p := range []string{"sk-proj-", "sk-ant-"} {
				if strings.HasPrefix(m, p) {
					return len(p)
				}
			}
			return len("sk-")
		}},
	{Prefix: "AKIA", What: "an AWS access key id", pattern: lazy(`AKIA[0-9A-Z]{16}`), keep: fixed(len("AKIA"))},
	{Prefix: "xox", What: "a Slack token", pattern: lazy(`xox[bpas]-[A-Za-z0-9-]{10,}`), keep: fixed(len("xoxb-"))},
	{Prefix: "AIza", What: "a Google API key", pattern: lazy(`AIza[0-9A-Za-z_-]{35}`), keep: fixed(len("AIza"))},
	// Stripe's secret (sk_) and restricted (rk_) keys, live and test.
	{Prefix: "k_live_", What: "a Stripe secret key", pattern: lazy(`[sr]k_live_[0-9A-Za-z]{16,}`), keep: fixed(len("sk_live_"))},
	{Prefix: "k_test_", What: "a Stripe test secret key", pattern: lazy(`[sr]k_test_[0-9A-Za-z]{16,}`), keep: fixed(len("sk_test_"))},
	// A JSON Web Token: header and payload are base64url JSON objects
	// ("{"... is eyJ), the signature may be empty (alg none).
	{Prefix: "eyJ", What: "a JSON Web Token", pattern: lazy(`eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*`), keep: fixed(len("eyJ"))},
	// The password of a URL's user information (scheme://user:password@host).
	{Prefix: "://", What: "a password in a URL", pattern: lazy(`[A-Za-z][A-Za-z0-9+.-]*://[^\s/?#@:"'<>]*:([^\s/?#@"'<>]+)@`), group: 1, keep: fixed(0)},
	// An AWS secret access key: 40 characters of base64 standing alone.
	{What: "an AWS secret access key", find: findAWSSecret, keep: fixed(0)},
}

// Match is one credential found in a text.
type Match struct {
	Start, End int // byte offsets of the value
	Shape      *Shape
}

// Find returns the credentials in s, in order, not overlapping.
func Find(s string) []Match {
	var out []Match
	for _, k := range Shapes {
		if k.find != nil {
			for _, loc := range k.find(s) {
				out = append(out, Match{Start: loc[0], End: loc[1], Shape: k})
			}
			continue
		}
		if !strings.Contains(s, k.Prefix) {
			continue
		}
		for _, loc := range k.pattern.re().FindAllStringSubmatchIndex(s, -1) {
			start, end := loc[2*k.group], loc[2*k.group+1]
			if !wordStart(s, loc[0], k) || k.group > 0 && LooksLikeReference(s[start:end]) {
				continue
			}
			out = append(out, Match{Start: start, End: end, Shape: k})
		}
	}
	if len(out) < 2 {
		return out
	}
	sortMatches(out)
	kept := out[:1]
	for _, m := range out[1:] {
		if m.Start >= kept[len(kept)-1].End {
			kept = append(kept, m)
		}
	}
	return kept
}

// wordStart reports whether a match at i starts a value rather than the
// middle of a word ("task-..." is not "sk-...", "ZAKIA..." is no key id).
func wordStart(s string, i int, k *Shape) bool {
	if i == 0 || k.Prefix == "-----BEGIN" || k.group > 0 {
		return true
	}
	c := s[i-1]
	return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') || afterEscape(s, i)
}

func sortMatches(ms []Match) {
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && (ms[j].Start < ms[j-1].Start || ms[j].Start == ms[j-1].Start && ms[j].End > ms[j-1].End); j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
}

// Detect returns the shape of the first credential in s, if any.
func Detect(s string) (*Shape, bool) {
	ms := Find(s)
	if len(ms) == 0 {
		return nil, false
	}
	return ms[0].Shape, true
}

// MayContain is a quick test: false means Find(s) is empty. It reads s
// once, looking for the first byte of a shape's prefix and for a run of 40
// base64 characters (one pass instead of one a shape: every line charter
// prints and every literal lint reads goes through it).
func MayContain(s string) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if awsChar[c] {
			if run == 0 {
				if n := escapeRest(s, i); n > 0 {
					// An escape's letters are no part of a value
					// (findAWSSecret).
					i += n - 1
					continue
				}
			}
			run++
		} else {
			if run == awsSecretLen && !awsEdge[c] {
				return true
			}
			run = 0
		}
		// The first two bytes of a prefix, then the rest: "e" and "k"
		// are common, "ey" and "k_" less so.
		if i+1 < len(s) && prefixStart[uint16(c)<<8|uint16(s[i+1])] {
			for _, k := range shapesByFirstByte[c] {
				if strings.HasPrefix(s[i:], k.Prefix) {
					return true
				}
			}
		}
	}
	return run == awsSecretLen
}

// shapesByFirstByte indexes Shapes by the first byte of their prefix, and
// prefixStart holds the first two bytes of every prefix. They are filled
// in place by init: a function returning the 64 KiB table grew the
// start-up goroutine's stack to copy it, in every charter process.
var (
	shapesByFirstByte [256][]*Shape
	prefixStart       [1 << 16]bool
)

func init() {
	for _, k := range Shapes {
		if k.Prefix != "" {
			shapesByFirstByte[k.Prefix[0]] = append(shapesByFirstByte[k.Prefix[0]], k)
			prefixStart[uint16(k.Prefix[0])<<8|uint16(k.Prefix[1])] = true
		}
	}
}

// awsSecretLen is the length of an AWS secret access key.
const awsSecretLen = 40

// awsChar holds the characters of an AWS secret access key (base64), and
// awsEdge those that may not stand right before or after one: more base64
// (of any kind) means a longer value of which the 40 are a part.
var awsChar, awsEdge = func() (chars, edge [256]bool) {
	for _, c := range []byte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") {
		chars[c], edge[c] = true, true
	}
	for _, c := range []byte("=_-") {
		edge[c] = true
	}
	return
}()

// findAWSSecret finds AWS secret access keys: exactly 40 characters of
// base64 between characters that could not continue them, mixing upper
// and lower case letters and digits, with at least 22 different
// characters (a random key has about 30; a word or a hex digest has
// fewer, or lacks a case), not starting with / and with at most two (a
// path). About one key in twenty fails these tests; one with a telling
// name (aws_secret_access_key: ...) is a credential by its name.
func findAWSSecret(s string) [][2]int {
	var out [][2]int
	start, afterEscape := -1, -1
	for i := 0; i <= len(s); i++ {
		if i < len(s) && awsChar[s[i]] {
			if start < 0 {
				// The letter of an escape (\n, \u0001) is no part of a
				// value: the value starts after it.
				if n := escapeRest(s, i); n > 0 {
					i += n - 1
					afterEscape = i + 1
					continue
				}
				start = i
			}
			continue
		}
		// Before the key an = is an assignment (KEY=...); after it,
		// base64's padding.
		if start >= 0 && i-start == awsSecretLen && (start == 0 || start == afterEscape || s[start-1] == '=' || !awsEdge[s[start-1]]) && (i == len(s) || !awsEdge[s[i]]) && keyLike(s[start:i]) {
			out = append(out, [2]int{start, i})
		}
		start = -1
	}
	return out
}

// escapeRest returns how many bytes from i finish an escape of JSON text
// (or of a Go or shell string) that a backslash before i starts: 1 for
// \n, \t, \r, \b, \f and \/, 5 for \uXXXX; 0 when s[i] follows no
// escaping backslash. Charter's output redacts JSON text line by line
// (Writer): a value right after an escape starts a word, and its
// redaction must leave the escape whole.
func escapeRest(s string, i int) int {
	if i == 0 || s[i-1] != '\\' {
		return 0
	}
	// An even run of backslashes is escaped backslashes: s[i] follows none.
	n := 0
	for j := i - 1; j >= 0 && s[j] == '\\'; j-- {
		n++
	}
	if n%2 == 0 {
		return 0
	}
	switch c := s[i]; {
	case strings.IndexByte("ntrbf/", c) >= 0:
		return 1
	case c == 'u' && i+5 <= len(s) && isHex4(s[i+1:i+5]):
		return 5
	}
	return 0
}

// afterEscape reports whether i is right after an escape (escapeRest).
func afterEscape(s string, i int) bool {
	return i >= 2 && escapeRest(s, i-1) == 1 || i >= 6 && escapeRest(s, i-5) == 5
}

func isHex4(s string) bool {
	for i := 0; i < 4; i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

func keyLike(v string) bool {
	// A path: a key starts with / once in 64, and holds three or more
	// once in 45.
	if v[0] == '/' || strings.Count(v, "/") > 2 {
		return false
	}
	var upper, lower, digits int
	var seen [256]bool
	distinct := 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= 'A' && c <= 'Z':
			upper++
		case c >= 'a' && c <= 'z':
			lower++
		case c >= '0' && c <= '9':
			digits++
		}
		if !seen[c] {
			seen[c] = true
			distinct++
		}
	}
	return upper > 0 && lower > 0 && digits > 0 && distinct >= 22
}

// Redact returns s with every credential replaced by its redacted form.
func Redact(s string) string {
	if !MayContain(s) {
		return s
	}
	ms := Find(s)
	if len(ms) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		b.WriteString(s[last:m.Start])
		b.WriteString(redacted(s[m.Start:m.End], m.Shape))
		last = m.End
	}
	b.WriteString(s[last:])
	return b.String()
}

// Redacted returns the redacted form of a credential value v: its
// well-known prefix (or none), "…", its length and a short hash.
func Redacted(v string) string {
	if k, ok := Detect(v); ok {
		return redacted(v, k)
	}
	return redacted(v, nil)
}

func redacted(v string, k *Shape) string {
	keep := 0
	if k != nil {
		keep = k.keep(v)
	}
	// The same key reads the same whether printed in a JSON string
	// (\n escapes) or as text.
	norm := strings.TrimRight(strings.ReplaceAll(v, `\n`, "\n"), " \t\r\n")
	sum := sha256.Sum256([]byte(norm))
	return fmt.Sprintf("%s…[%d chars %s]", v[:keep], len(norm), hex.EncodeToString(sum[:4]))
}

// secretName matches field names of credentials: names that end in a
// credential word, after _ or - (api_key, db_password; not token_pattern).
var secretName = lazy(`(^|[_-])(api[_-]?key|apikey|token|auth[_-]?token|access[_-]?token|refresh[_-]?token|bearer|secret|client[_-]?secret|password|passwd|passphrase|pwd|private[_-]?key|access[_-]?key|secret[_-]?key|credentials?)$`)

// NamedLike reports whether a field name says its value is a credential.
func NamedLike(label string) bool {
	lower := strings.ToLower(label)
	for _, w := range []string{"key", "token", "bearer", "secret", "pass", "pwd", "credential"} {
		if strings.Contains(lower, w) {
			return secretName.re().MatchString(lower)
		}
	}
	return false
}

var envName = lazy(`^[A-Z][A-Z0-9_]*$`)

// LooksLikeReference reports whether a value refers to a credential (an
// environment variable name, ${VAR}, env:, vault:, op://, ...) rather than
// being one.
func LooksLikeReference(s string) bool {
	switch {
	case envName.re().MatchString(s),
		strings.Contains(s, "${"), strings.HasPrefix(s, "$"),
		strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}"),
		strings.HasPrefix(s, "<") && strings.HasSuffix(s, ">"):
		return true
	}
	for _, prefix := range []string{"env:", "vault:", "op://", "secret:", "secrets:", "ref:", "file:", "arn:aws:secretsmanager:", "projects/"} {
		if strings.HasPrefix(strings.ToLower(s), prefix) {
			return true
		}
	}
	return strings.ContainsAny(s, " \n") // prose (a description), not a credential
}

// IsLiteral reports whether a value held by a field named label is a
// literal credential: shaped like one, or named like one and not a
// reference.
func IsLiteral(label, value string) (what string, ok bool) {
	if k, ok := Detect(value); ok {
		return k.What, true
	}
	if NamedLiteral(label, value) {
		return "a credential", true
	}
	return "", false
}

// RedactNamed returns v (JSON-like values: maps, lists, strings) with the
// literal credential of every field named like one (api_key, password)
// redacted: shapes are redacted by Redact and Writer, names only where the
// structure is known. v is not changed; parts are shared.
func RedactNamed(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if s, ok := e.(string); ok && NamedLiteral(k, s) {
				out[k] = Redacted(s)
				continue
			}
			out[k] = RedactNamed(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = RedactNamed(e)
		}
		return out
	}
	return v
}

// NamedLiteral reports whether a value held by a field named label is a
// credential by its field's name alone: the name says credential and the
// value is not a reference (env:NAME, ${VAR}, ...).
func NamedLiteral(label, value string) bool {
	return label != "" && NamedLike(label) && len(value) >= 6 && !LooksLikeReference(value)
}

// quoted matches a double-quoted string literal in a message.
var quoted = lazy(`"(?:[^"\\\n]|\\.)*"`)

// RedactQuoted returns msg, a message about the field named label, with
// every quoted value that field's name says is a credential (NamedLiteral)
// redacted: a message quoting an api_key's values (a conflict) would print
// them, and no shape gives them away.
func RedactQuoted(label, msg string) string {
	if !NamedLike(label) || !strings.Contains(msg, `"`) {
		return msg
	}
	return quoted.re().ReplaceAllStringFunc(msg, func(q string) string {
		v, err := strconv.Unquote(q)
		if err != nil {
			v = q[1 : len(q)-1]
		}
		if !NamedLiteral(label, v) {
			return q
		}
		return `"` + Redacted(v) + `"`
	})
}
