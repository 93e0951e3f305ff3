package validate

import (
	"encoding/json"
	"regexp"
	"sync"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/literal"
	"cuelang.org/go/cue/token"
)

// literalJSON returns the JSON of a declaration the user wrote as one plain
// literal: a struct of regular fields whose values are strings, numbers in
// JSON form, booleans, null, and lists and structs of the same, written in
// one place (no other file adds to it, no pattern applies to it). For such a
// value CUE's evaluation is the literal itself, so its JSON can be written
// from the syntax without asking CUE for the value's fields (each time in
// declaration order, which costs a topological sort). Anything else
// (references, expressions, defaults, definitions and hidden fields, byte
// strings, numbers like 1_000 or 0x10, a label given twice) returns false,
// and the caller asks CUE.
func literalJSON(user cue.Value) ([]byte, bool) {
	f, ok := user.Source().(*ast.Field)
	if !ok || f.Value == nil {
		return nil, false
	}
	return appendLiteral(nil, f.Value)
}

var jsonNumber = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`) })

func appendLiteral(b []byte, n ast.Expr) ([]byte, bool) {
	switch n := n.(type) {
	case *ast.StructLit:
		b = append(b, '{')
		seen := make(map[string]bool, len(n.Elts))
		for _, d := range n.Elts {
			switch d := d.(type) {
			case *ast.CommentGroup:
				continue
			case *ast.Field:
				name, ok := plainLabel(d)
				if !ok || seen[name] {
					return nil, false
				}
				seen[name] = true
				if len(seen) > 1 {
					b = append(b, ',')
				}
				b, _ = appendString(b, name)
				b = append(b, ':')
				if b, ok = appendLiteral(b, d.Value); !ok {
					return nil, false
				}
			default:
				return nil, false
			}
		}
		return append(b, '}'), true
	case *ast.ListLit:
		b = append(b, '[')
		for i, e := range n.Elts {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendLiteral(b, e); !ok {
				return nil, false
			}
		}
		return append(b, ']'), true
	case *ast.BasicLit:
		switch n.Kind {
		case token.STRING:
			s, ok := unquoteString(n.Value)
			if !ok {
				return nil, false // a byte string is base64 in JSON
			}
			return appendString(b, s)
		case token.INT, token.FLOAT:
			if !jsonNumber().MatchString(n.Value) {
				return nil, false
			}
			return append(b, n.Value...), true
		case token.TRUE:
			return append(b, "true"...), true
		case token.FALSE:
			return append(b, "false"...), true
		case token.NULL:
			return append(b, "null"...), true
		}
	case *ast.UnaryExpr:
		if lit, ok := n.X.(*ast.BasicLit); ok && n.Op == token.SUB &&
			(lit.Kind == token.INT || lit.Kind == token.FLOAT) && jsonNumber().MatchString(lit.Value) {
			return append(append(b, '-'), lit.Value...), true
		}
	}
	return nil, false
}

// plainLabel returns the name of a regular field with a plain label: an
// identifier that is neither hidden nor a definition, or a quoted string.
func plainLabel(f *ast.Field) (string, bool) {
	if f.Constraint != token.ILLEGAL || f.Alias != nil || f.Value == nil {
		return "", false
	}
	switch l := f.Label.(type) {
	case *ast.Ident:
		if l.Name == "" || l.Name[0] == '_' || l.Name[0] == '#' || l.Name[0] == '$' {
			return "", false
		}
		return l.Name, true
	case *ast.BasicLit:
		if l.Kind != token.STRING {
			return "", false
		}
		q, start, _, err := literal.ParseQuotes(l.Value, l.Value)
		if err != nil || !q.IsDouble() || q.IsMulti() {
			return "", false
		}
		s, err := q.Unquote(l.Value[start:])
		return s, err == nil
	}
	return "", false
}

// unquoteString returns the value of a string literal's source text; ok is
// false for a byte string ('...') or bad quoting.
func unquoteString(raw string) (string, bool) {
	q, start, _, err := literal.ParseQuotes(raw, raw)
	if err != nil || !q.IsDouble() {
		return "", false
	}
	s, err := q.Unquote(raw[start:])
	return s, err == nil
}

func appendString(b []byte, s string) ([]byte, bool) {
	q, err := json.Marshal(s)
	if err != nil {
		return nil, false
	}
	return append(b, q...), true
}
