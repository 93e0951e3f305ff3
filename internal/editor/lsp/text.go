package lsp

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// text is a file's content with the line starts that positions need.
// LSP positions count UTF-16 code units in a line; CUE's count bytes from 1.
type text struct {
	src   string
	lines []int // byte offset of each line's start
}

func newText(src string) *text {
	t := &text{src: src, lines: []int{0}}
	for i := range len(src) {
		if src[i] == '\n' {
			t.lines = append(t.lines, i+1)
		}
	}
	return t
}

// line returns line i (0-based) without its newline, or "" past the end.
func (t *text) line(i int) string {
	if i < 0 || i >= len(t.lines) {
		return ""
	}
	end := len(t.src)
	if i+1 < len(t.lines) {
		end = t.lines[i+1] - 1
	}
	return strings.TrimSuffix(t.src[t.lines[i]:end], "\r")
}

// offset returns the byte offset of an LSP position, clamped to the text:
// a line past the end is the end, a character past a line's end is the
// line's end.
func (t *text) offset(p protocol.Position) int {
	l := int(p.Line)
	if l >= len(t.lines) {
		return len(t.src)
	}
	line := t.line(l)
	units, i := 0, 0
	for i < len(line) && units < int(p.Character) {
		r, n := utf8.DecodeRuneInString(line[i:])
		units += utf16.RuneLen(r)
		if units > int(p.Character) { // inside a surrogate pair
			break
		}
		i += n
	}
	return t.lines[l] + i
}

// position returns the LSP position of a byte offset.
func (t *text) position(off int) protocol.Position {
	off = max(0, min(off, len(t.src)))
	l := 0
	for l+1 < len(t.lines) && t.lines[l+1] <= off {
		l++
	}
	return protocol.Position{Line: protocol.UInteger(l), Character: protocol.UInteger(utf16Len(t.src[t.lines[l]:off]))}
}

// at returns the byte offset of a CUE line and byte column (both from 1);
// zero or out-of-range values are clamped.
func (t *text) at(line, col int) int {
	if line < 1 {
		return 0
	}
	if line > len(t.lines) {
		return len(t.src)
	}
	start := t.lines[line-1]
	return start + max(0, min(col-1, len(t.line(line-1))))
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// tokenEnd returns the end of the name that starts at off: a quoted string
// (to its closing quote) or an identifier; at least one character.
func (t *text) tokenEnd(off int) int {
	s := t.src
	if off >= len(s) {
		return off
	}
	if s[off] == '"' {
		for i := off + 1; i < len(s) && s[i] != '\n'; i++ {
			switch s[i] {
			case '\\':
				i++
			case '"':
				return i + 1
			}
		}
	}
	i := off
	for i < len(s) && isIdent(s[i]) {
		i++
	}
	if i == off {
		_, n := utf8.DecodeRuneInString(s[off:])
		if s[off] == '\n' {
			n = 0
		}
		i += n
	}
	return i
}

func isIdent(c byte) bool {
	return c == '_' || c == '#' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// rangeOf returns the LSP range of bytes [start, end).
func (t *text) rangeOf(start, end int) protocol.Range {
	return protocol.Range{Start: t.position(start), End: t.position(end)}
}
