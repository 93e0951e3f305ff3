package rules

import (
	"regexp"
	"strings"
	"testing"
)

// plainKeyRE is what plainKey implements by hand.
var plainKeyRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

func TestPlainKey(t *testing.T) {
	for _, key := range []string{
		"", "a", "A9", "9", "a.b_c-d", ".a", "_a", "-a", "a/b", "a b", "a\x00b", "é", "a\n",
		strings.Repeat("a", 128), strings.Repeat("a", 129), "a" + strings.Repeat(".", 127), "a" + strings.Repeat(".", 128),
	} {
		if got, want := plainKey(key), plainKeyRE.MatchString(key); got != want {
			t.Errorf("plainKey(%q) = %v, want %v", key, got, want)
		}
	}
}

func FuzzPlainKey(f *testing.F) {
	for _, s := range []string{"", "a", "a.b", "-a", "a\n", strings.Repeat("z", 128)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, key string) {
		if got, want := plainKey(key), plainKeyRE.MatchString(key); got != want {
			t.Errorf("plainKey(%q) = %v, want %v", key, got, want)
		}
	})
}
