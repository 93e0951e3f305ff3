package site

import (
	"strings"
	"testing"

	"github.com/charter-dev/charter/internal/output/secret"
)

// A credential shows redacted however the page escaped it.
func TestRedactPage(t *testing.T) {
	key := "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx1y2z3w4v5u6t7s8r9q0p\nQ1w2e3r4t5y6u7+i8o9p0a1s2d3f4g5h6j7k8l9z0x\n-----END RSA PRIVATE KEY-----"
	for _, tc := range []struct{ name, page, secret string }{
		{"text", `<td>Helps ghp_0123456789abcdefghijklmnopqrstuvwxyz</td>`, "ghp_0123456789abcdefghijklmnopqrstuvwxyz"},
		{"graphviz dash", `<text>Ann sk&#45;proj&#45;0123456789abcdefghij</text>`, "sk-proj-0123456789abcdefghij"},
		{"html/template plus", "<p>" + strings.ReplaceAll(key, "+", "&#43;") + "</p>", key},
		{"attribute newlines", `<rect title="` + strings.NewReplacer("\n", "&#10;", "+", "&#43;").Replace(key) + `">`, key},
		{"quoted JSON", `<pre>&#34;role&#34;: &#34;xoxb&#45;1234567890abc&#34;</pre>`, "xoxb-1234567890abc"},
		{"named reference", `<td>AKIA&#x51;QAWSEXAMPLE1234 &amp; more</td>`, "AKIAQQAWSEXAMPLE1234"},
	} {
		got := string(redactPage([]byte(tc.page)))
		want := secret.Redacted(tc.secret)
		if !strings.Contains(got, want) {
			t.Errorf("%s: redactPage(%q) = %q, want %q in it", tc.name, tc.page, got, want)
		}
		for _, part := range []string{"0123456789abc", "MIIEow", "u7", "1234567890abc", "EXAMPLE1234"} {
			if strings.Contains(tc.secret, part) && strings.Contains(got, part) {
				t.Errorf("%s: redactPage(%q) = %q: %q shows", tc.name, tc.page, got, part)
			}
		}
	}
	// A page with nothing to redact is the same bytes.
	page := `<p>a &amp; b &#43; task&#45;0123456789abcdefghijklmnop</p>`
	if got := string(redactPage([]byte(page))); got != page {
		t.Errorf("redactPage(%q) = %q, want it unchanged", page, got)
	}
}
