package lint

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/literal"
	"cuelang.org/go/cue/token"

	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/output/diag"
)

var invisibleCharacters = &Rule{
	ID:       "invisible-characters",
	Severity: diag.Error,
	Summary:  "a string holds characters a reader does not see: tag characters, zero-width or bidirectional controls",
	Doc: doc(`Unicode has characters that no editor, diff or review tool draws, but that a model reads: the tag characters U+E0000 to U+E007F, which spell ASCII text invisibly ("ASCII smuggling": a description that looks harmless can carry "Ignore all previous instructions"), zero-width spaces and joiners, the bidirectional controls that reorder what a reader sees, and variation selectors in a run (which encode hidden bytes). In configuration that reaches a prompt they are an attack through a pull request or a copy-paste accident; either way what the reviewer approved is not what the model reads. This rule reports every string that holds one, at the line of the first one, with how many there are and, for tag characters, the text they spell. charter diff, render and site show them as escapes (\U000e0049). Remove them; an emoji's variation selector (❤️) is not reported.`,
		`agents: ann: description: "Helps with billing.\U000E0049\U000E0067\U000E006E\U000E006F\U000E0072\U000E0065"`,
		`agents: ann: description: "Helps with billing."`),
	Run: func(p *Pass) {
		for _, f := range p.Files {
			for _, s := range f.Strings {
				checkInvisible(p, f, s.Lit)
			}
		}
	},
}

// checkInvisible reports lit when its value holds invisible characters
// (diag.Invisible: the ones Escape shows), at the first one when the
// source holds it as written, else at the literal.
func checkInvisible(p *Pass, file *load.File, lit *ast.BasicLit) {
	raw := lit.Value
	if !strings.ContainsRune(raw, '\\') && onlyVisible(raw) {
		return
	}
	v, err := literal.Unquote(raw)
	if err != nil {
		return
	}
	var count int
	var first rune = -1
	prev := rune(-1)
	for _, r := range v {
		if diag.Invisible(prev, r) {
			count++
			if first < 0 {
				first = r
			}
		}
		prev = r
	}
	if count == 0 {
		return
	}
	pos := lit.Pos()
	if i := strings.IndexRune(raw, first); i >= 0 {
		if f := pos.File(); f != nil {
			pos = f.Pos(f.Offset(pos)+i, token.NoRelPos)
		}
	}
	what := fmt.Sprintf("U+%04X", first)
	if hidden := revealed(v); hidden != "" {
		what = fmt.Sprintf("tag characters that spell %q", hidden)
	}
	noun := "invisible characters"
	if count == 1 {
		noun = "invisible character"
	}
	p.ReportPosf(pos, labelsAround(file, lit), "%d %s: %s; a model reads them and a reviewer does not see them: remove them", count, noun, what)
}

// onlyVisible is a quick test on a literal's source: true when it holds
// no character that could be invisible (ASCII but controls).
func onlyVisible(raw string) bool {
	for i := 0; i < len(raw); i++ {
		if raw[i] >= utf8.RuneSelf || raw[i] < 0x20 && raw[i] != '\t' && raw[i] != '\n' {
			return false
		}
	}
	return true
}

// revealed returns the text the tag characters of s spell (U+E0020 to
// U+E007E stand for ASCII), "" when it has none.
func revealed(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 0xe0020 && r <= 0xe007e {
			b.WriteRune(r - 0xe0000)
		}
	}
	return b.String()
}

// unhidden returns s as a model may read it: its tag characters as the
// ASCII they stand for, its other invisible characters (a zero-width space
// inside a word) left out.
func unhidden(s string) string {
	if onlyVisible(s) {
		return s
	}
	var b strings.Builder
	prev := rune(-1)
	for _, r := range s {
		switch {
		case r >= 0xe0020 && r <= 0xe007e:
			b.WriteRune(r - 0xe0000)
		case diag.Invisible(prev, r):
		default:
			b.WriteRune(r)
		}
		prev = r
	}
	return b.String()
}
