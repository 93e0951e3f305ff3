package lsp

import (
	"strconv"
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"
)

// elem stands for a list element in a cursor's path.
const elem = "[]"

// cursor is what is under a position in a buffer, from its syntax.
type cursor struct {
	// path holds the labels from the top of the file to the field the
	// cursor is in, elem for a list element: agents ann behavior
	// communication formatting.
	path []string
	// label is set when the cursor is on the last label of path, or on a
	// name typed where a field's label goes (then path ends with it too).
	label bool
	// str is set when the cursor is in a string literal; value is then
	// its content, else the label or the word under the cursor.
	str   bool
	value string
	// start and end delimit the label, or the string's content, in bytes.
	start, end int
	// siblings holds the fields beside the one the cursor is in, by label,
	// with their string values (a behavior's type beside its params).
	siblings map[string]string
	// inStruct is set when the cursor is in a struct but on no field:
	// where a new field's label goes.
	inStruct bool
	// ident is set when the cursor is on an identifier used as a value;
	// quote when that is only the placeholder locate typed for a value
	// not begun yet: completions then bring their quotes.
	ident, quote bool
	// element holds the string-valued fields of the innermost list
	// element the cursor is in (a behavior's type beside its params).
	element map[string]string
}

// patches are what locate inserts at the cursor to make a buffer parse
// while the author is in the middle of typing.
var patches = []string{"", `"`, "_", `""`, `_"`, "_}"}

// locate parses src and finds what is at byte offset off. It returns nil
// when the buffer does not parse, even patched, or off is outside every
// field.
func locate(filename, src string, off int) *cursor {
	off = max(0, min(off, len(src)))
	for i, patch := range append(patches, "") {
		f, err := parser.ParseFile(filename, src[:off]+patch+src[off:], parser.ParseComments)
		// Last, what the parser made of the buffer despite its errors
		// (a syntax error elsewhere in the file).
		if err != nil && (i < len(patches) || f == nil) {
			continue
		}
		c := findDecls(f.Decls, off, nil, nil)
		if c != nil && c.element == nil {
			c.element = map[string]string{}
		}
		if c == nil {
			return nil
		}
		// Offsets after the patch move back to the buffer's.
		fix := func(x int) int {
			if x > off {
				x = max(off, x-len(patch))
			}
			return x
		}
		c.start, c.end = fix(c.start), fix(c.end)
		if c.str && patch != "" && c.end > off {
			c.end = off
		}
		c.start = max(0, min(c.start, len(src)))
		c.end = max(c.start, min(c.end, len(src)))
		if c.start <= off && off <= c.end && c.end-c.start >= 0 && c.end <= len(src) {
			c.value = src[c.start:c.end]
			if c.str {
				c.value = unescape(c.value)
			}
		}
		if strings.HasPrefix(patch, "_") && c.ident && !c.label && c.start == off && c.end == off {
			// A value not begun: complete it as a string.
			c.str, c.quote, c.value = true, true, ""
		}
		return c
	}
	return nil
}

func unescape(s string) string {
	if u, err := strconv.Unquote(`"` + s + `"`); err == nil {
		return u
	}
	return s
}

func contains(n ast.Node, off int) bool {
	return n.Pos().IsValid() && n.Pos().Offset() <= off && off <= n.End().Offset()
}

func findDecls(decls []ast.Decl, off int, path []string, el map[string]string) *cursor {
	for _, d := range decls {
		if !contains(d, off) {
			continue
		}
		switch d := d.(type) {
		case *ast.Field:
			name, _, err := ast.LabelName(d.Label)
			if err != nil {
				return nil
			}
			p := append(path[:len(path):len(path)], name)
			if contains(d.Label, off) {
				return &cursor{path: p, label: true, start: d.Label.Pos().Offset(), end: d.Label.End().Offset(), siblings: siblings(decls), element: el}
			}
			if d.Value != nil && d.Value.Pos().IsValid() && off >= d.Value.Pos().Offset() {
				return findExpr(d.Value, off, p, siblings(decls), el)
			}
			// After the colon, before the value: a value not begun.
			return &cursor{path: p, siblings: siblings(decls), start: off, end: off, element: el, str: true, quote: true}
		case *ast.EmbedDecl:
			if id, ok := d.Expr.(*ast.Ident); ok {
				p := append(path[:len(path):len(path)], id.Name)
				return &cursor{path: p, label: true, start: id.Pos().Offset(), end: id.End().Offset(), siblings: siblings(decls), element: el}
			}
			return findExpr(d.Expr, off, path, siblings(decls), el)
		}
	}
	return nil
}

func findExpr(e ast.Expr, off int, path []string, sib, el map[string]string) *cursor {
	switch x := e.(type) {
	case *ast.StructLit:
		if c := findDecls(x.Elts, off, path, el); c != nil {
			return c
		}
		if x.Lbrace.IsValid() && off > x.Lbrace.Offset() && (!x.Rbrace.IsValid() || off <= x.Rbrace.Offset()) {
			return &cursor{path: path, inStruct: true, siblings: siblings(x.Elts), start: off, end: off, element: el}
		}
	case *ast.ListLit:
		p := append(path[:len(path):len(path)], elem)
		for _, e := range x.Elts {
			if contains(e, off) {
				if st, ok := e.(*ast.StructLit); ok {
					el = siblings(st.Elts)
				}
				return findExpr(e, off, p, sib, el)
			}
		}
		return &cursor{path: p, start: off, end: off, siblings: sib, element: el}
	case *ast.BasicLit:
		c := &cursor{path: path, siblings: sib, element: el, start: x.Pos().Offset(), end: x.End().Offset()}
		if x.Kind == token.STRING {
			c.str = true
			q := quoteLen(x.Value)
			c.start += q
			c.end = max(c.start, c.end-q)
		}
		return c
	case *ast.Interpolation:
		return &cursor{path: path, siblings: sib, element: el, str: true, start: x.Pos().Offset() + 1, end: x.End().Offset() - 1}
	case *ast.Ident:
		return &cursor{path: path, siblings: sib, element: el, ident: true, start: x.Pos().Offset(), end: x.End().Offset()}
	case *ast.BinaryExpr:
		if contains(x.X, off) {
			return findExpr(x.X, off, path, sib, el)
		}
		if contains(x.Y, off) {
			return findExpr(x.Y, off, path, sib, el)
		}
	case *ast.UnaryExpr:
		return findExpr(x.X, off, path, sib, el)
	case *ast.ParenExpr:
		return findExpr(x.X, off, path, sib, el)
	}
	return &cursor{path: path, siblings: sib, element: el, start: off, end: off}
}

// quoteLen is the length of a string literal's opening quote: ", """, #"
// and the like.
func quoteLen(lit string) int {
	n := 0
	for n < len(lit) && lit[n] == '#' {
		n++
	}
	if strings.HasPrefix(lit[n:], `"""`) {
		return n + 3
	}
	return n + 1
}

// siblings returns the string-valued fields of a struct by label.
func siblings(decls []ast.Decl) map[string]string {
	m := map[string]string{}
	for _, d := range decls {
		fd, ok := d.(*ast.Field)
		if !ok {
			continue
		}
		name, _, err := ast.LabelName(fd.Label)
		if err != nil {
			continue
		}
		m[name] = ""
		if lit, ok := fd.Value.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil {
				m[name] = s
			}
		}
	}
	return m
}
