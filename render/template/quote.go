package template

import (
	"strconv"
	"unicode/utf8"
)

// maxQuote is how many bytes of template text an error message quotes.
const maxQuote = 40

// quote quotes s for an error message, shortened to about maxQuote bytes.
func quote(s string) string {
	if len(s) > maxQuote {
		n := maxQuote
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		return strconv.Quote(s[:n]) + "..."
	}
	return strconv.Quote(s)
}

// runeAt returns the rune (or the invalid byte) starting at s[i].
func runeAt(s string, i int) string {
	_, n := utf8.DecodeRuneInString(s[i:])
	return s[i : i+n]
}
