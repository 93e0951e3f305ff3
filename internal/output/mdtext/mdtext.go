// Package mdtext escapes text from the configuration for the Markdown
// charter writes (charter docs, charter diff --format markdown, the
// language server's hovers), so that a
// Markdown renderer shows it as the text it is: no HTML element (a
// description holding <img src=x onerror=...> would run where HTML is
// allowed), no link, no emphasis, no heading, list, quote or code block
// made of a value.
package mdtext

import (
	"strings"
	"unicode"

	"github.com/charter-dev/charter/internal/output/diag"
)

// Escape returns s as Markdown inline text that renders as s: every ASCII
// punctuation character that can start or close Markdown or HTML (\ ` * _
// [ ] < & | ~) is backslash-escaped (CommonMark lets any ASCII
// punctuation be; an _ between two letters or digits, never emphasis, is
// left as it is), and so is a character that would open a block at the
// start of a line (a list's -, + or "1.", a heading's #, a quote's >, a
// setext underline's =; with < escaped, a > closes no HTML); a line's leading blanks, which would make an indented
// code block, and its trailing ones are dropped. Line feeds are kept:
// in a paragraph they are soft breaks. Control and invisible characters
// are made visible as in every text output (diag.Escape), keeping line
// feeds.
func Escape(s string) string {
	s = diag.Escape(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	lines := strings.Split(s, "\n")
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	for i, line := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		// Leading spaces would make an indented code block, or hide a
		// block marker after them; two trailing ones a hard break.
		line = strings.Trim(line, " \t")
		for j, r := range line {
			switch {
			case r == '_' && j > 0 && j+1 < len(line) && wordByte(line[j-1]) && wordByte(line[j+1]):
				// Inside a word (max_attempts) _ is never emphasis.
			case strings.ContainsRune("\\`*_[]<&|~", r):
				b.WriteByte('\\')
			case j == 0 && strings.ContainsRune("-+=#>", r):
				b.WriteByte('\\')
			case (r == '.' || r == ')') && j > 0 && allDigits(line[:j]):
				// "1." or "1)" at the start of a line opens a list.
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Code returns s as inline code, "" as nothing: on one line with control
// and invisible characters visible (diag.Escape), since a blank line would
// end the code span and its paragraph and what follows would render as
// Markdown or HTML, between enough backticks that none of s's closes it.
func Code(s string) string {
	return fenced(diag.Escape(s, ""))
}

// CellCode is Code for a cell of a GitHub table, where | ends the cell
// even inside code: it is written \|.
func CellCode(s string) string {
	return fenced(strings.ReplaceAll(diag.Escape(s, ""), "|", `\|`))
}

// fenced puts s, escaped, between enough backticks.
func fenced(s string) string {
	if s == "" {
		return ""
	}
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

func allDigits(s string) bool {
	for _, r := range s {
		if !unicode.IsDigit(r) || r > unicode.MaxASCII {
			return false
		}
	}
	return s != ""
}

func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
