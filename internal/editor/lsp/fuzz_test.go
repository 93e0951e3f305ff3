package lsp

import (
	"testing"
	"unicode/utf8"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// FuzzLocate: any buffer and any position give a cursor or nil, never a
// panic, and the cursor's range lies inside the buffer.
func FuzzLocate(f *testing.F) {
	f.Add("package charter\nagents: ann: behavior: communication: formatting: \"pl\"\n", 60)
	f.Add("agents: ann: {\n\ttype: \"", 23)
	f.Add("agents: [{type: \"x\", params: {", 30)
	f.Add("a: \"\"\"\n\t{x}\n\t\"\"\"\n", 9)
	f.Add("#\"x\"#", 2)
	f.Fuzz(func(t *testing.T, src string, off int) {
		c := locate("f.cue", src, off)
		if c == nil {
			return
		}
		if c.start < 0 || c.end > len(src) || c.start > c.end {
			t.Errorf("range [%d, %d) outside the buffer of %d bytes", c.start, c.end, len(src))
		}
		_ = resolve(c, nil)
	})
}

// FuzzPositions: a byte offset at a character boundary survives the trip
// to an LSP position (UTF-16) and back; any position maps into the text.
func FuzzPositions(f *testing.F) {
	f.Add("a\nb€c\n😀x", 7, uint32(2), uint32(3))
	f.Add("", 0, uint32(9), uint32(9))
	f.Fuzz(func(t *testing.T, src string, off int, line, char uint32) {
		tx := newText(src)
		if o := tx.offset(protocol.Position{Line: line, Character: char}); o < 0 || o > len(src) {
			t.Errorf("offset %d outside the text", o)
		}
		if off < 0 || off > len(src) || !utf8.ValidString(src) || off < len(src) && !utf8.RuneStart(src[off]) {
			return
		}
		if back := tx.offset(tx.position(off)); back != off && !(off > 0 && src[off-1] == '\r') {
			t.Errorf("offset %d -> %v -> %d", off, tx.position(off), back)
		}
		_ = tx.tokenEnd(off)
	})
}
