package load

import (
	"strconv"

	"cuelang.org/go/cue/ast"
)

// AgentsOnly reports whether a file declares agents and nothing else, and
// which: every top-level declaration is `agents: ID: {...}` (or `agents:
// {ID: ..., ...}`), besides the package clause, imports and comments. Such
// a file cannot change the resolved form of any other agent, so history
// commands may leave it out when they follow one agent.
func AgentsOnly(f *ast.File) (ids []string, ok bool) {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.Package, *ast.ImportDecl, *ast.CommentGroup, *ast.Attribute:
		case *ast.Field:
			if labelName(d.Label) != "agents" {
				return nil, false
			}
			s, isStruct := d.Value.(*ast.StructLit)
			if !isStruct {
				return nil, false
			}
			for _, e := range s.Elts {
				af, isField := e.(*ast.Field)
				if !isField {
					if _, isComment := e.(*ast.CommentGroup); isComment {
						continue
					}
					return nil, false
				}
				id := labelName(af.Label)
				if id == "" {
					return nil, false
				}
				ids = append(ids, id)
			}
		default:
			return nil, false
		}
	}
	return ids, len(ids) > 0
}

// labelName returns a field's label as a plain name, or "" when the label is
// not a plain identifier or string (a pattern, an alias, an expression).
func labelName(l ast.Label) string {
	switch l := l.(type) {
	case *ast.Ident:
		if len(l.Name) > 0 && (l.Name[0] == '#' || l.Name[0] == '_') {
			return ""
		}
		return l.Name
	case *ast.BasicLit:
		s, err := strconv.Unquote(l.Value)
		if err != nil {
			return ""
		}
		return s
	}
	return ""
}
