package lint

import (
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"
)

// stringLiterals calls fn for each string literal of f, with the labels of
// the fields around it and its field's label when it is the field's whole
// value ("" otherwise); a field whose value is a string literal is not
// walked further (its label is not visited). It finds what ast.Walk finds,
// in the same order (TestStringLiteralsMatchASTWalk), in half the time:
// ast.Walk asks every node for its comments, which this never reads, and
// fields, structs, lists and literals (nearly every node of a
// configuration file) are walked by a type switch, the rest by ast.Walk.
func stringLiterals(f *ast.File, fn func(path []string, label string, lit *ast.BasicLit)) {
	w := literalWalk{fn: fn}
	for _, d := range f.Decls {
		w.node(d)
	}
}

type literalWalk struct {
	fn   func(path []string, label string, lit *ast.BasicLit)
	path []string
	// indices puts a list element's index on the path ([0]), as
	// diagnostics name elements.
	indices bool
}

func (w *literalWalk) node(n ast.Node) {
	switch n := n.(type) {
	case *ast.Field:
		name := labelName(n.Label)
		w.path = append(w.path, name)
		if lit, ok := n.Value.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			w.fn(w.path, name, lit)
		} else {
			w.node(n.Label)
			if n.Alias != nil {
				w.node(n.Alias)
			}
			if n.Value != nil {
				w.node(n.Value)
			}
		}
		w.path = w.path[:len(w.path)-1]
	case *ast.StructLit:
		for _, e := range n.Elts {
			w.node(e)
		}
	case *ast.ListLit:
		for i, e := range n.Elts {
			if w.indices {
				w.path = append(w.path, index(i))
			}
			w.node(e)
			if w.indices {
				w.path = w.path[:len(w.path)-1]
			}
		}
	case *ast.BasicLit:
		if n.Kind == token.STRING {
			w.fn(w.path, "", n)
		}
	case *ast.Ident, *ast.CommentGroup, *ast.Comment:
	default:
		w.slow(n)
	}
}

// slow walks n with ast.Walk, keeping the field labels on the path.
func (w *literalWalk) slow(n ast.Node) {
	ast.Walk(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			name, _, _ := ast.LabelName(n.Label)
			w.path = append(w.path, name)
			if lit, ok := n.Value.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				w.fn(w.path, name, lit)
				w.path = w.path[:len(w.path)-1] // after is not called
				return false
			}
		case *ast.BasicLit:
			if n.Kind == token.STRING {
				w.fn(w.path, "", n)
			}
		case *ast.CommentGroup:
			return false
		}
		return true
	}, func(n ast.Node) {
		if _, ok := n.(*ast.Field); ok {
			w.path = w.path[:len(w.path)-1]
		}
	})
}

// labelName is ast.LabelName's name: an identifier's as it is (the parser
// made it, so it is valid; LabelName's check of that is a third of a
// walk's time).
func labelName(l ast.Label) string {
	if id, ok := l.(*ast.Ident); ok {
		return id.Name
	}
	name, _, _ := ast.LabelName(l)
	return name
}
