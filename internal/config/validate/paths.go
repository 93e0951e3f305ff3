package validate

import (
	"cuelang.org/go/cue"
	"cuelang.org/go/cue/token"
	"github.com/charter-dev/charter/internal/config/fieldpath"
	"github.com/charter-dev/charter/internal/config/load"
)

// Path is the one path type, fieldpath.Path, under the name validate's
// code has always used.
type Path = fieldpath.Path

// Index returns the path label of a list index: "[3]".
func Index(i int) string { return fieldpath.Index(i) }

// posOf returns the position of the value at p in v, or of its nearest
// ancestor that exists there (but never the root, which has no single
// position).
func posOf(v cue.Value, p Path) token.Pos { return posAt(v, p, userPos) }

// labelPosOf is posOf for the label of the field at p rather than its
// value: where an unknown name is.
func labelPosOf(v cue.Value, p Path) token.Pos { return posAt(v, p, labelPos) }

func posAt(v cue.Value, p Path, pos func(cue.Value) token.Pos) token.Pos {
	// An ancestor's label is as good as its value.
	return load.Locate([]cue.Value{v}, p, pos, userPos)
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
		if fieldpath.IsIndex(l) {
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
