package importer

import (
	"fmt"
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/literal"
	"cuelang.org/go/cue/token"

	"github.com/charter-dev/charter/internal/editor/cuefmt"
)

// source writes one declaration as a CUE file of package pkg, built as
// syntax and formatted as charter fmt formats.
func (d *Decl) source(pkg string) ([]byte, error) {
	// kind: id: { ... }: the body one tab in.
	body := structLit(d.Body, 1)
	field := &ast.Field{Label: ast.NewStringLabel(d.Kind), Value: ast.NewStruct(&ast.Field{Label: label(d.ID), Value: body})}
	f := &ast.File{Decls: []ast.Decl{&ast.Package{Name: ast.NewIdent(pkg)}}}
	if d.Comment != "" {
		cg := &ast.CommentGroup{Doc: true}
		for _, line := range strings.Split(strings.TrimRight(d.Comment, "\n"), "\n") {
			cg.List = append(cg.List, &ast.Comment{Text: strings.TrimRight("// "+line, " ")})
		}
		// Its own element, not a comment of the field: the formatter
		// would open up kind: id: into two levels to place it.
		f.Decls = append(f.Decls, cg)
	}
	f.Decls = append(f.Decls, field)
	b, err := format.Node(f, format.Simplify())
	if err != nil {
		return nil, fmt.Errorf("internal error: formatting %s.%s: %v", d.Kind, d.ID, err)
	}
	out, ds := cuefmt.Source(d.File, b)
	if ds != nil {
		return nil, fmt.Errorf("internal error: the CUE written for %s.%s does not parse: %s", d.Kind, d.ID, ds[0].Message)
	}
	return out, nil
}

func structLit(n *Node, depth int) *ast.StructLit {
	s := &ast.StructLit{}
	for _, f := range n.Fields {
		s.Elts = append(s.Elts, &ast.Field{Label: label(f.Key), Value: expr(f.Value, depth+1)})
	}
	return s
}

// label is a field name: an identifier where CUE reads one as the same
// name, else quoted (names starting with # or _ would be definitions or
// hidden fields).
func label(key string) ast.Label {
	if strings.HasPrefix(key, "#") || strings.HasPrefix(key, "_") {
		return ast.NewString(key)
	}
	return ast.NewStringLabel(key)
}

func expr(n *Node, depth int) ast.Expr {
	switch n.Kind {
	case Map:
		return structLit(n, depth)
	case List:
		l := &ast.ListLit{}
		for _, item := range n.Items {
			l.Elts = append(l.Elts, expr(item, depth+1))
		}
		return l
	case String:
		if strings.Contains(n.Text, "\n") {
			return &ast.BasicLit{Kind: token.STRING, Value: literal.String.WithTabIndent(depth).Quote(n.Text)}
		}
		return ast.NewString(n.Text)
	case Number:
		tok := token.INT
		if strings.ContainsAny(n.Text, ".eE") {
			tok = token.FLOAT
		}
		return ast.NewLit(tok, n.Text)
	case Bool:
		return ast.NewBool(n.Text == "true")
	}
	return ast.NewNull()
}
