package validate

import (
	"strconv"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/token"
	"github.com/charter-dev/charter/load"
)

// Path is a field path as a list of labels.
type Path []string

// String renders the path in dot notation, quoting labels that are not
// identifiers (agents."my agent".name).
func (p Path) String() string {
	var b strings.Builder
	for i, l := range p {
		if i > 0 && !isIndexLabel(l) {
			b.WriteByte('.')
		}
		if isIdent(l) || isIndexLabel(l) {
			b.WriteString(l)
		} else {
			b.WriteString(cue.Str(l).String())
		}
	}
	return b.String()
}

// Index returns the path label of a list index: "[3]".
func Index(i int) string { return "[" + strconv.Itoa(i) + "]" }

func isIndexLabel(l string) bool {
	return len(l) > 2 && l[0] == '[' && l[len(l)-1] == ']' && isIndex(l[1:len(l)-1])
}

// Child returns p extended by labels, without aliasing p.
func (p Path) Child(labels ...string) Path {
	out := make(Path, 0, len(p)+len(labels))
	return append(append(out, p...), labels...)
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
		case i > 0 && r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return true
}

func (p Path) selectors() []cue.Selector {
	sels := make([]cue.Selector, len(p))
	for i, l := range p {
		if isIndexLabel(l) {
			n, _ := strconv.Atoi(l[1 : len(l)-1])
			sels[i] = cue.Index(n)
		} else {
			sels[i] = cue.Str(l)
		}
	}
	return sels
}

// posOf returns the position of the value at p in v, or of its nearest
// ancestor that exists there (but never the root, which has no single
// position).
func posOf(v cue.Value, p Path) token.Pos { return posAt(v, p, userPos) }

// labelPosOf is posOf for the label of the field at p rather than its
// value: where an unknown name is.
func labelPosOf(v cue.Value, p Path) token.Pos { return posAt(v, p, labelPos) }

func posAt(v cue.Value, p Path, pos func(cue.Value) token.Pos) token.Pos {
	sels := p.selectors()
	for n := len(sels); n >= 1; n-- {
		x := v.LookupPath(cue.MakePath(sels[:n]...))
		if !x.Exists() {
			continue
		}
		if p := pos(x); p.IsValid() {
			return p
		}
		pos = userPos // an ancestor's label is as good as its value
	}
	return token.NoPos
}

// userPos returns the position of x in a user file: of its value when it
// is a literal (where a wrong value is), else of its label.
func userPos(x cue.Value) token.Pos {
	if p := load.ValuePos(x); p.IsValid() && !isEmbedded(p) {
		return p
	}
	return token.NoPos
}

// labelPos returns the position of x's label in a user file.
func labelPos(x cue.Value) token.Pos {
	if pos := x.Pos(); pos.IsValid() && !isEmbedded(pos) {
		return pos
	}
	return token.NoPos
}

// schemaChild looks up a child label of a schema value, whether the field
// is regular, optional, required, or matched by a pattern.
func schemaChild(s cue.Value, label string) cue.Value {
	for _, sel := range []cue.Selector{cue.Str(label), cue.Str(label).Optional(), cue.Str(label).Required()} {
		if c := s.LookupPath(cue.MakePath(sel)); c.Exists() {
			return c
		}
	}
	return s.LookupPath(cue.MakePath(cue.AnyString))
}

// schemaAt walks a schema value along p; list indexes in p are numbers.
func schemaAt(s cue.Value, p Path) cue.Value {
	for _, l := range p {
		if isIndexLabel(l) {
			s = s.LookupPath(cue.MakePath(cue.AnyIndex))
		} else {
			s = schemaChild(s, l)
		}
		if !s.Exists() {
			return s
		}
	}
	return s
}

func isIndex(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
