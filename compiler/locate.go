package compiler

import (
	"sync"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"

	"github.com/charter-dev/charter/internal/config/fieldpath"
	"github.com/charter-dev/charter/internal/config/load"
)

// Locator maps CUE paths to source positions: in the user's files first,
// then in the embedded standard library (file names starting "<charter>/").
// It is safe for concurrent use: lookups are serialized, since CUE values
// are not safe to read from several goroutines at once.
type Locator struct {
	mu        sync.Mutex
	user, std cue.Value
	// decls holds the declarations (agents.ann: its value in user and
	// in std) found so far: looking one up reads its map's fields one by
	// one, which made locating every finding of lint quadratic in the
	// number of agents.
	decls map[[2]string][2]cue.Value
	// column counts a user file's column in characters.
	column func(file string, line, col int) int
}

// NewLocator returns a Locator over repo.
func NewLocator(repo *load.Repo) *Locator {
	return &Locator{user: repo.Value, std: repo.Schema.Stdlib, column: repo.CharColumn}
}

// chars returns p with its column counted in characters (Unicode code
// points) instead of CUE's bytes, when p is in a user file.
func (l *Locator) chars(p Position) Position {
	if l == nil || l.column == nil {
		return p
	}
	p.Column = l.column(p.File, p.Line, p.Column)
	return p
}

// Pos returns the position of the value at path, or of its nearest
// ancestor. A list index in path ("[3]", see fieldpath.Index) selects the
// element.
func (l *Locator) Pos(path ...string) Position {
	if l == nil {
		return Position{}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	var p token.Pos
	if len(path) > 2 {
		// Below a declaration, from the declaration's values: the same
		// lookups, in the same order, as from the roots.
		d := l.decl(path[0], path[1])
		p = load.Locate(d[:], path[2:], load.ValuePos, nil)
		path = path[:2]
	}
	if !p.IsValid() {
		p = load.Locate([]cue.Value{l.user, l.std}, path, load.ValuePos, nil)
	}
	if !p.IsValid() {
		return Position{}
	}
	return l.chars(Position{File: p.Filename(), Line: p.Line(), Column: p.Column()})
}

// decl returns the values of declaration kind.name in the user's files and
// the standard library (either may not exist). l.mu is held.
func (l *Locator) decl(kind, name string) [2]cue.Value {
	key := [2]string{kind, name}
	if d, ok := l.decls[key]; ok {
		return d
	}
	if l.decls == nil {
		l.decls = map[[2]string][2]cue.Value{}
	}
	sel := cue.MakePath(fieldpath.Path{kind, name}.Selectors()...)
	d := [2]cue.Value{l.user.LookupPath(sel), l.std.LookupPath(sel)}
	l.decls[key] = d
	return d
}

// LiteralPos returns the position and source text of the string literal at
// path in the user's files or the standard library.
func (l *Locator) LiteralPos(path ...string) (token.Pos, string) {
	if l == nil {
		return token.NoPos, ""
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	sels := fieldpath.Path(path).Selectors()
	for _, root := range []cue.Value{l.user, l.std} {
		v := root.LookupPath(cue.MakePath(sels...))
		if !v.Exists() {
			continue
		}
		if f, ok := v.Source().(*ast.Field); ok {
			if lit, ok := f.Value.(*ast.BasicLit); ok {
				return lit.Pos(), lit.Value
			}
		}
	}
	return token.NoPos, ""
}

func dotted(path []string) string { return fieldpath.Path(path).String() }

// Declares reports whether the user's files or the standard library have
// a value exactly at path (Pos settles for the nearest ancestor).
func (l *Locator) Declares(path ...string) bool {
	if l == nil {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	p := cue.MakePath(fieldpath.Path(path).Selectors()...)
	return l.user.LookupPath(p).Exists() || l.std.LookupPath(p).Exists()
}
