package diag

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Escape returns s with every character that would act on a terminal or a
// log viewer instead of being shown written as a visible escape: C0
// controls but tab (\n, \r, \x1b, ...), DEL and the C1 controls as \xNN
// or \uNNNN, and the Unicode bidirectional overrides and isolates
// (U+202A-U+202E, U+2066-U+2069), which reorder what a reader sees, as
// \uNNNN. A backslash is left alone, so text without such characters is
// unchanged. Bytes of invalid UTF-8 become \xNN. The characters in keep
// (among \n and \r) are kept: the text format keeps line feeds, which
// charter's own messages use to list choices on lines of their own, and
// GitHub's format keeps both, which it escapes its own way.
//
// Messages quote values from the configuration (a model name, a rule's
// message), and a value holding ESC [2J would clear the screen of whoever
// runs charter lint.
func Escape(s string, keep string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return needsEscape(r, keep) })
	if i < 0 && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case !needsEscape(r, keep):
			b.WriteString(s[i : i+n])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		i += n
	}
	return b.String()
}

func needsEscape(r rune, keep string) bool {
	switch {
	case r == '\t':
		return false
	case r == '\n' || r == '\r':
		return !strings.ContainsRune(keep, r)
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}
