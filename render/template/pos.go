package template

import (
	"strconv"
	"strings"
)

// Pos is a place in a template's text.
type Pos struct {
	// Offset is the 0-based byte offset.
	Offset int
	// Line is 1-based; lines end at "\n".
	Line int
	// Column is 1-based and counts bytes from the start of the line.
	Column int
}

// String formats p as "line:column".
func (p Pos) String() string {
	return strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Column)
}

// lineCounter turns byte offsets into positions. Offsets must be asked for in
// increasing order, so that the whole text is scanned once.
type lineCounter struct {
	src       string
	off       int // offset of the last position computed
	line      int // line at off
	lineStart int // offset of the first byte of that line
}

func newLineCounter(src string) *lineCounter {
	return &lineCounter{src: src, line: 1}
}

func (c *lineCounter) pos(off int) Pos {
	if off < c.off {
		c.off, c.line, c.lineStart = 0, 1, 0
	}
	seg := c.src[c.off:off]
	if n := strings.Count(seg, "\n"); n > 0 {
		c.line += n
		c.lineStart = c.off + strings.LastIndexByte(seg, '\n') + 1
	}
	c.off = off
	return Pos{Offset: off, Line: c.line, Column: off - c.lineStart + 1}
}
