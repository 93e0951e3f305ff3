package compiler

import (
	"strconv"
	"strings"
	"sync"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"

	"github.com/charter-dev/charter/load"
)

// Locator maps CUE paths to source positions: in the user's files first,
// then in the embedded standard library (file names starting "<charter>/").
// It is safe for concurrent use: lookups are serialized, since CUE values
// are not safe to read from several goroutines at once.
type Locator struct {
	mu        sync.Mutex
	user, std cue.Value
}

// NewLocator returns a Locator over repo.
func NewLocator(repo *load.Repo) *Locator {
	return &Locator{user: repo.Value, std: repo.Schema.Stdlib}
}

// Pos returns the position of the value at path, or of its nearest ancestor.
func (l *Locator) Pos(path ...string) Position {
	if l == nil {
		return Position{}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	sels := selectors(path)
	for n := len(sels); n >= 1; n-- {
		for _, root := range []cue.Value{l.user, l.std} {
			v := root.LookupPath(cue.MakePath(sels[:n]...))
			if !v.Exists() {
				continue
			}
			if p := load.ValuePos(v); p.IsValid() {
				return Position{File: p.Filename(), Line: p.Line(), Column: p.Column()}
			}
		}
	}
	return Position{}
}

// LiteralPos returns the position and source text of the string literal at
// path in the user's files or the standard library.
func (l *Locator) LiteralPos(path ...string) (token.Pos, string) {
	if l == nil {
		return token.NoPos, ""
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	sels := selectors(path)
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

// selectors turns labels into CUE selectors; "[3]" is a list index.
func selectors(path []string) []cue.Selector {
	sels := make([]cue.Selector, len(path))
	for i, p := range path {
		sels[i] = cue.Str(p)
		if n, ok := indexLabel(p); ok {
			sels[i] = cue.Index(n)
		}
	}
	return sels
}

func indexLabel(l string) (int, bool) {
	if len(l) < 3 || l[0] != '[' || l[len(l)-1] != ']' {
		return 0, false
	}
	n, err := strconv.Atoi(l[1 : len(l)-1])
	return n, err == nil && n >= 0
}

// dotted writes a path in dot notation, list indexes as [i].
func dotted(path []string) string {
	var b strings.Builder
	for i, l := range path {
		if _, idx := indexLabel(l); i > 0 && !idx {
			b.WriteByte('.')
		}
		b.WriteString(l)
	}
	return b.String()
}

// Declares reports whether the user's files or the standard library have
// a value exactly at path (Pos settles for the nearest ancestor).
func (l *Locator) Declares(path ...string) bool {
	if l == nil {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	p := cue.MakePath(selectors(path)...)
	return l.user.LookupPath(p).Exists() || l.std.LookupPath(p).Exists()
}
