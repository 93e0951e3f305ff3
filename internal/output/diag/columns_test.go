package diag

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestCharColumns(t *testing.T) {
	files := map[string][]byte{
		"a.cue":     []byte("x\n\tname: \"Zoë ☃\", openness: 1.5\r\n"),
		"bad.cue":   []byte("\xff\xfe: 1\n"),
		"plain.cue": []byte("abc: 1\n"),
	}
	source := func(f string) ([]byte, bool) { b, ok := files[f]; return b, ok }
	in := []Diagnostic{
		// "openness" starts at byte 24, character 21 (ë is 2 bytes, ☃ 3).
		{File: "a.cue", Line: 2, Column: 24},
		{File: "a.cue", Line: 2, Column: 1},
		{File: "a.cue", Line: 2, Column: 99}, // past the end: bytes beyond count one each
		{File: "a.cue", Line: 9, Column: 5},  // no such line: kept
		{File: "bad.cue", Line: 1, Column: 3},
		{File: "plain.cue", Line: 1, Column: 6},
		{File: "gone.cue", Line: 1, Column: 6},
		{Message: "no file"},
	}
	got := CharColumns(in, source)
	var cols []int
	for _, d := range got {
		cols = append(cols, d.Column)
	}
	want := []int{21, 1, 96, 5, 3, 6, 6, 0}
	if diff := cmp.Diff(want, cols); diff != "" {
		t.Errorf("columns (-want +got):\n%s", diff)
	}
}

func TestRebase(t *testing.T) {
	ds := []Diagnostic{{File: "agents/x.cue"}, {Message: "no file"}}
	got := Rebase(ds, "config")
	if got[0].File != "config/agents/x.cue" || got[1].File != "" {
		t.Errorf("Rebase = %+v", got)
	}
	if got := Rebase(ds, "."); got[0].File != "agents/x.cue" {
		t.Errorf("Rebase(.) = %+v", got)
	}
	if got := Rebase(ds, "../cfg"); got[0].File != "../cfg/agents/x.cue" {
		t.Errorf("Rebase(../cfg) = %+v", got)
	}
}

func TestEscape(t *testing.T) {
	tests := []struct {
		in, keep, want string
	}{
		{"plain text, tab\tand \\ kept", "", "plain text, tab\tand \\ kept"},
		{"Zoë ☃", "", "Zoë ☃"},
		{"a\x1b[2Jb", "\n", `a\x1b[2Jb`},
		{"line\nnext\r", "", `line\nnext\r`},
		{"line\nnext\r", "\n", "line\nnext\\r"},
		{"line\nnext\r", "\r\n", "line\nnext\r"},
		{"nul\x00 del\x7f c1\u0085", "", `nul\x00 del\x7f c1\u0085`},
		{"bidi \u202etxt.exe\u2066", "", `bidi \u202etxt.exe\u2066`},
		{"bad \xff utf8", "", `bad \xff utf8`},
		{"tags \U000E0049\U000E0067\U000E006E hidden", "", `tags \U000e0049\U000e0067\U000e006e hidden`},
		{"zero\u200bwidth\ufeff soft\u00adhyphen \u2028", "", `zero\u200bwidth\ufeff soft\u00adhyphen \u2028`},
		{"emoji \u2764\ufe0f 1\ufe0f\u20e3 kept, \ufe0f\ufe01 not", "", "emoji \u2764\ufe0f 1\ufe0f\u20e3 kept, \\ufe0f\\ufe01 not"},
		{"vs \U000E0100", "", `vs \U000e0100`},
		// GitHub Actions runs a line that starts with :: after white
		// space, and the legacy ##[command] anywhere in a line.
		{"::error::forged", "", `\x3a:error::forged`},
		{" \t\u00a0::warning::x", "", " \t\u00a0\\x3a:warning::x"},
		{"a::b and x ::y", "", "a::b and x ::y"},
		{"ok\n  ::notice::x\n::y", "\n", "ok\n  \\x3a:notice::x\n\\x3a:y"},
		{"ok\n::y", "", `ok\n::y`},
		{"mid ##[error]x ##[stop-commands]t #[ok] ## [ok]", "", `mid #\x23[error]x #\x23[stop-commands]t #[ok] ## [ok]`},
		{"###[x", "", `##\x23[x`},
	}
	for _, tt := range tests {
		if got := Escape(tt.in, tt.keep); got != tt.want {
			t.Errorf("Escape(%q, %q) = %q, want %q", tt.in, tt.keep, got, tt.want)
		}
	}
}

// FuzzEscape checks that Escape leaves no character that acts on a
// terminal, writes valid UTF-8, and changes nothing in text without such
// characters.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "plain", "a\x1b[2Jb", "Zoë\u202e", "\xff\xfe", "line\r\nnext", "\\x1b", "\U000E0041\ufe0f\ufe0f", "::error::x", "a\n \u3000::x", "###[", "#\n#["} {
		f.Add(s, "")
		f.Add(s, "\n")
		f.Add(s, "\r\n")
	}
	f.Fuzz(func(t *testing.T, s, keep string) {
		out := Escape(s, keep)
		if !utf8.ValidString(out) {
			t.Fatalf("Escape(%q) = %q: not UTF-8", s, out)
		}
		prev := rune(-1)
		for _, r := range out {
			if needsEscape(r, prev, keep) {
				t.Fatalf("Escape(%q) = %q: still holds %U", s, out, r)
			}
			prev = r
		}
		if clean(s, keep) != (out == s) {
			t.Fatalf("Escape(%q) = %q: changed clean text", s, out)
		}
		if strings.Contains(out, "##[") {
			t.Fatalf("Escape(%q) = %q: holds a legacy workflow command", s, out)
		}
		for _, line := range strings.FieldsFunc(out, func(r rune) bool { return r == '\n' || r == '\r' }) {
			if strings.HasPrefix(strings.TrimLeftFunc(line, unicode.IsSpace), "::") {
				t.Fatalf("Escape(%q) = %q: line %q is a workflow command", s, out, line)
			}
		}
	})
}

// FuzzCharColumns checks that a character column is never past the byte
// column, never below 1, and equal to it on ASCII lines.
func FuzzCharColumns(f *testing.F) {
	f.Add("a: \"Zoë\", b: 1\n", 1, 13)
	f.Add("\xff\xfe\n", 1, 2)
	f.Fuzz(func(t *testing.T, src string, line, col int) {
		if line < 1 || line > 1000 || col < 1 || col > 10000 {
			return
		}
		got := CharColumn([]byte(src), line, col)
		if got < 1 || got > col {
			t.Fatalf("column %d of line %d became %d in %q", col, line, got, src)
		}
		ascii := true
		for i := 0; i < len(src); i++ {
			ascii = ascii && src[i] < utf8.RuneSelf
		}
		if ascii && got != col {
			t.Fatalf("ASCII: column %d became %d", col, got)
		}
	})
}
