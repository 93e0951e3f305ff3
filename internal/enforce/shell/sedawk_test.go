package shell_test

import (
	"strings"
	"testing"

	"github.com/charter-dev/charter/internal/enforce/shell"
)

// TestSedECommandAfterAnyAddress: sed's e command after a regex address
// with a custom delimiter (\%x%e) or the I or M flag (/x/Ie), and the s
// command with a letter as its delimiter (sxaxbxe) or a space (s a b e), ran touch here (GNU
// sed 4.9) and were not seen.
func TestSedECommandAfterAnyAddress(t *testing.T) {
	for _, src := range []string{`sed '\%x%e curl x' f`, `sed '/x/Ie curl x' f`, `sed '/x/M e curl x' f`, `sed '/x/I,/y/e curl x' f`, `sed 'sxhxcurl xxe' f`, `sed '1{sxaxcurlxe}' f`, `sed 's a curl e' f`, `sed '1s a curl e' f`, `sed '\nxne' f`} {
		if !runsCurl(t, src) {
			t.Errorf("%s: every command known", src)
		}
	}
	for _, src := range []string{`sed 's/one/two/' f`, `sed -n '/start/,/end/p' f`, `sed 's/x/e/' f`, `sed '/e/d' f`, `sed 's/\(a\)/\1e/' f`, `sed 's/a/b/;s/c/d/' f`, `sed -e 's/foo/bar/' -e 's/baz/qux/g' f`} {
		cs, err := shell.Parse(src)
		if err != nil || len(cs) != 1 || !cs[0].Known {
			t.Errorf("%s: %+v %v, want one known command", src, cs, err)
		}
	}
}

// TestAwkPipeToExpression: print's output pipe takes any expression: a
// parenthesised one, a concatenation or an array element (print | (c
// "h"), print | c "h") ran touch here (mawk); gawk's @include, @load and
// indirect call @f() run what charter does not see.
func TestAwkPipeToExpression(t *testing.T) {
	for _, src := range []string{
		`awk 'BEGIN{print "id" | ("s" "h")}'`, `awk 'BEGIN{c="s"; print "id" | c "h"}'`, `awk 'BEGIN{print "id" | c[1]}'`,
		`awk '@include "x.awk"; {print}' f`, `awk 'BEGIN{f="system"; @f("curl x")}'`, `awk '@load "filefuncs"; {print}' f`,
	} {
		if !runsCurl(t, src) {
			t.Errorf("%s: every command known", src)
		}
	}
	for _, src := range []string{`awk '/a|b/ {n++} END {print n}' f`, `awk '$1 ~ /x|y/' f`, `awk '{print $1 "@" $2}' f`, `awk -F'|' '{print $2}' f`, `awk 'a || b {print}' f`, `awk '{ if ($1 ~ /^a|b$/) print }' f`, `awk '{gsub(/a|b/, "x"); print}' f`} {
		cs, err := shell.Parse(src)
		if err != nil || len(cs) != 1 || !cs[0].Known {
			t.Errorf("%s: %+v %v, want one known command", src, cs, err)
		}
	}
}

// BenchmarkSedScriptOfManyEscapes: a sed script of many \n compiled a
// pattern per escape and matched it on the rest of the script (an earlier
// commit of this review): 8,000 took 2.3 s, 128 Ki (the 256 KiB limit)
// minutes, past any hook's timeout. One pattern per letter: 2.6 ms.
func BenchmarkSedScriptOfManyEscapes(b *testing.B) {
	src := "sed '" + strings.Repeat(`\n`, 8000) + "' f"
	for b.Loop() {
		if _, err := shell.Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}
