package diag

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Escape is charter's one escaper for text output: every command that
// prints a value from the configuration or from Git in a text format (a
// diagnostic, a test name, a commit subject, a diff's value, a prompt
// line) passes it through Escape, so that every output escapes the same
// characters the same way.
//
// It returns s with every character that would act on a terminal or a log
// viewer, or hide from a reader, instead of being shown, written as a
// visible escape:
//
//   - C0 controls but tab (\n, \r, \x1b, ...), DEL and the C1 controls, as
//     \n, \r or \xNN (C1 as \u0080 ...): a line feed would let a value write
//     a line of its own, which GitHub Actions runs as a workflow command
//     when it starts with ::, and ESC [2J would clear the screen;
//   - the Unicode bidirectional controls (U+061C, U+200E, U+200F,
//     U+202A-U+202E, U+2066-U+2069), which reorder what a reader sees;
//   - the invisible format characters (Unicode category Cf: zero-width
//     spaces and joiners, U+FEFF, the soft hyphen, ...), the line and
//     paragraph separators U+2028 and U+2029, and the tag characters
//     U+E0000-U+E007F, which carry hidden ASCII text ("ASCII smuggling");
//   - variation selectors U+FE00-U+FE0F that do not follow a visible
//     character (a run of them encodes hidden bytes), and every one of
//     U+E0100-U+E01EF;
//
// as \uNNNN, or \UNNNNNNNN above U+FFFF. Bytes of invalid UTF-8 become
// \xNN. So do the characters that would make GitHub Actions run a line as
// a workflow command: the first colon of a :: that starts the text, or a
// line of it, after white space only (the runner trims it), as \x3a, and
// the second # of ##[ anywhere (the legacy form, which the runner reads in
// the middle of a line, ##[stop-commands] included), as \x23. A backslash
// is left alone, so text without such characters is unchanged. The
// characters in keep (among \n and \r) are kept: a prompt printed whole
// keeps its line feeds, and GitHub's format keeps both, which it escapes
// its own way.
func Escape(s string, keep string) string {
	if clean(s, keep) {
		return s
	}
	var b strings.Builder
	prev := rune(-1)
	lineStart := true
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if lineStart && strings.HasPrefix(s[i:], "::") {
			b.WriteString(`\x3a`)
			prev, lineStart = ':', false
			i++
			continue
		}
		if strings.HasPrefix(s[i:], "##[") {
			b.WriteString(`#\x23`)
			prev, lineStart = '#', false
			i += 2
			continue
		}
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case !needsEscape(r, prev, keep):
			b.WriteString(s[i : i+n])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r > 0xffff:
			fmt.Fprintf(&b, `\U%08x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		lineStart = startsLine(r, lineStart, keep)
		prev = r
		i += n
	}
	return b.String()
}

// startsLine reports whether what follows r, written as it is or kept,
// is still at the start of a line for GitHub Actions' runner: after a
// kept line break, or white space the runner trims (.NET's, which is
// Go's unicode.IsSpace) that Escape writes as it is.
func startsLine(r rune, lineStart bool, keep string) bool {
	if r == '\n' || r == '\r' {
		return strings.ContainsRune(keep, r)
	}
	return lineStart && unicode.IsSpace(r) && !needsEscape(r, -1, keep)
}

// clean reports whether Escape leaves s as it is.
func clean(s, keep string) bool {
	prev := rune(-1)
	lineStart := true
	for i := 0; i < len(s); {
		c := s[i]
		if lineStart && c == ':' && strings.HasPrefix(s[i:], "::") || c == '#' && strings.HasPrefix(s[i:], "##[") {
			return false
		}
		if c >= 0x20 && c < 0x7f {
			lineStart = lineStart && c == ' '
			prev = rune(c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || needsEscape(r, prev, keep) {
			return false
		}
		lineStart = startsLine(r, lineStart, keep)
		prev = r
		i += n
	}
	return true
}

// Invisible reports whether r, after prev (-1 at the start of a text), is
// a character that Escape writes as an escape because a reader would not
// see it: a control, a bidirectional control, an invisible format
// character, a tag character or a variation selector that follows no
// visible character. Tab and line feed are not invisible.
func Invisible(prev, r rune) bool {
	return r != '\t' && r != '\n' && needsEscape(r, prev, "")
}

func needsEscape(r, prev rune, keep string) bool {
	switch {
	case r == '\t':
		return false
	case r == '\n' || r == '\r':
		return !strings.ContainsRune(keep, r)
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
		return true
	case r < 0xad:
		return false
	case r >= 0xe0000 && r <= 0xe007f, r >= 0xe0100 && r <= 0xe01ef:
		// Tags, and the supplementary variation selectors.
		return true
	case r >= 0xfe00 && r <= 0xfe0f:
		// A variation selector picks the form of the character before
		// it (an emoji's); one after another, or after nothing visible,
		// carries hidden bytes.
		return prev < 0 || isVariationSelector(prev) || unicode.IsSpace(prev) || needsEscape(prev, 'x', "")
	case r == 0x2028 || r == 0x2029:
		return true
	}
	return unicode.Is(unicode.Cf, r)
}

func isVariationSelector(r rune) bool {
	return r >= 0xfe00 && r <= 0xfe0f || r >= 0xe0100 && r <= 0xe01ef
}

// legacyCommand is what GitHub Actions' runner reads as a workflow command
// anywhere in a line.
var legacyCommand = []byte("##[")

// EscapeJSON returns encoded JSON with the second # of every ##[ written
// \u0023, which a JSON reader reads as the same #: a JSON output shown in
// a CI log (lint --format json, log, diff, show) then holds no legacy
// workflow command that GitHub Actions' runner would run (##[ is only
// ever inside a string in JSON). A :: cannot start a line of JSON.
func EscapeJSON(b []byte) []byte {
	if !bytes.Contains(b, legacyCommand) {
		return b
	}
	return bytes.ReplaceAll(b, legacyCommand, []byte(`#\u0023[`))
}
