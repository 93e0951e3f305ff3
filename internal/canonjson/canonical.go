package canonjson

import (
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gowebpki/jcs"
)

// appendNumber writes f as ECMAScript does (RFC 8785 3.2.2.3).
func appendNumber(b []byte, f float64) ([]byte, error) {
	s, err := jcs.NumberToJSON(f)
	if err != nil {
		return nil, err
	}
	return append(b, s...), nil
}

// appendString escapes as ECMAScript's JSON.stringify does (RFC 8785
// 3.2.2.2). Invalid UTF-8 is written as U+FFFD.
func appendString(b []byte, s string) []byte { return appendQuoted(b, s, false) }

// AppendEncodingJSON appends s as a JSON string as encoding/json writes
// it without HTML escaping: as RFC 8785 does, but for U+2028 and U+2029,
// escaped (JavaScript reads them as line ends), and an invalid byte
// written as \ufffd. charter serve's answers are written so, by hand, on
// its hot path.
func AppendEncodingJSON(b []byte, s string) []byte { return appendQuoted(b, s, true) }

// appendQuoted is appendString, or AppendEncodingJSON's escapes with
// encodingJSON.
func appendQuoted(b []byte, s string, encodingJSON bool) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0 // s[start:i] is yet to be copied and needs no escape
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			lineEnd := r == '\u2028' || r == '\u2029'
			if r != utf8.RuneError && !(encodingJSON && lineEnd) || r == utf8.RuneError && size != 1 {
				i += size
				continue
			}
			b = append(b, s[start:i]...)
			switch {
			case lineEnd:
				b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			case encodingJSON:
				b = append(b, `\ufffd`...) // an invalid byte
			default:
				b = utf8.AppendRune(b, utf8.RuneError) // an invalid byte
			}
			i += size
			start = i
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// compareUTF16 orders strings by their UTF-16 code units (RFC 8785 3.2.3).
// For valid UTF-8 that is byte order, except where a character from U+E000
// to U+FFFF meets one above U+FFFF (UTF-16 writes the latter as
// surrogates, D800-DFFF), so only strings that both hold characters from
// U+E000 up, or invalid UTF-8 (read as U+FFFD), are converted.
func compareUTF16(a, b string) int {
	if hasE000(a) && hasE000(b) || !utf8.ValidString(a) || !utf8.ValidString(b) {
		return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
	}
	return strings.Compare(a, b)
}

// hasE000 reports whether s may hold a character from U+E000 up: its
// lead byte in UTF-8 is 0xEE or more.
func hasE000(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xEE {
			return true
		}
	}
	return false
}
