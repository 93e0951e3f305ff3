package load

import (
	"testing"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/parser"
)

// FuzzNestingComments: the comment groups nesting collects (File.Comments)
// are those ast.Walk visits, in its order, for any file within the limits.
func FuzzNestingComments(f *testing.F) {
	for _, s := range []string{
		"package x\n// a\na: 1 // b\n",
		"package x\n@attr() // c\na: {\n\t@embed() // d\n\tb: [1, // e\n\t\t2]\n\tc: 1 @x() // f\n}\n",
		"package x\nimport \"strings\" // g\na: strings.ToUpper(\"x\") // h\nfor k, v in {} { // i\n\t(k): v\n}\n",
		"package x\na: *1 | // j\n\t2\nb: { // k\n\tlet y = 1 // l\n\tc: y\n}\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		file, err := parser.ParseFile("f.cue", src, parser.ParseComments)
		if err != nil {
			return
		}
		got, _, _, _, ok := nesting(file)
		if !ok {
			return
		}
		var want []*ast.CommentGroup
		ast.Walk(file, func(n ast.Node) bool {
			if g, ok := n.(*ast.CommentGroup); ok {
				want = append(want, g)
				return false
			}
			return true
		}, nil)
		if len(got) != len(want) {
			t.Fatalf("%d comment groups, ast.Walk %d", len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("comment group %d is %q, ast.Walk's %q", i, got[i].Text(), want[i].Text())
			}
		}
	})
}
