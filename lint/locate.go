package lint

import (
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"

	"github.com/charter-dev/charter/load"
)

// elementPositions maps the dotted path of each list element in paths
// (agents.ann.tools.denied[1]), or of a field inside one, to its position
// in the user's files. Program.Locate resolves field paths; list elements
// it can only place at the list, so findings at an element are placed from
// the syntax. Only the fields and elements on the way to one of paths are
// visited, so the cost follows the findings, not the size of the files.
func elementPositions(files []*load.File, paths [][]string) map[string]token.Pos {
	onPath := map[string]bool{}
	for _, p := range paths {
		for n := 1; n <= len(p); n++ {
			onPath[dotted(p[:n])] = true
		}
	}
	out := map[string]token.Pos{}
	var walk func(n ast.Node, path []string, inList bool)
	walk = func(n ast.Node, path []string, inList bool) {
		switch n := n.(type) {
		case *ast.File:
			for _, d := range n.Decls {
				walk(d, path, inList)
			}
		case *ast.StructLit:
			for _, d := range n.Elts {
				walk(d, path, inList)
			}
		case *ast.EmbedDecl:
			walk(n.Expr, path, inList)
		case *ast.BinaryExpr:
			walk(n.X, path, inList)
			walk(n.Y, path, inList)
		case *ast.Field:
			name, _, err := ast.LabelName(n.Label)
			if err != nil {
				return
			}
			p := append(path[:len(path):len(path)], name)
			key := dotted(p)
			if !onPath[key] {
				return
			}
			if inList {
				pos := n.Value.Pos()
				if !pos.IsValid() {
					pos = n.Pos()
				}
				out[key] = pos
			}
			walk(n.Value, p, inList)
		case *ast.ListLit:
			for i, e := range n.Elts {
				p := append(path[:len(path):len(path)], index(i))
				key := dotted(p)
				if !onPath[key] {
					continue
				}
				out[key] = e.Pos()
				walk(e, p, true)
			}
		}
	}
	for _, f := range files {
		walk(f.Syntax, nil, false)
	}
	return out
}

// hasElement reports whether a path names a list element.
func hasElement(path []string) bool {
	for _, l := range path {
		if strings.HasPrefix(l, "[") {
			return true
		}
	}
	return false
}
