package load

import (
	"testing"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"
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
		facts, _, _, _, ok := nesting(file)
		got := facts.comments
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

// astWalkStrings is the walk File.Strings stands for: ast.Walk over the
// whole file, a field whose value is a string literal taken whole.
func astWalkStrings(f *ast.File) []StringLiteral {
	var out []StringLiteral
	ast.Walk(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			if lit, ok := n.Value.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				name, _, _ := ast.LabelName(n.Label)
				out = append(out, StringLiteral{Lit: lit, Label: name})
				return false
			}
		case *ast.BasicLit:
			if n.Kind == token.STRING {
				out = append(out, StringLiteral{Lit: n})
			}
		}
		return true
	}, nil)
	return out
}

// FuzzNestingStrings: the string literals nesting collects (File.Strings)
// are those ast.Walk finds, in its order, for any file within the limits.
func FuzzNestingStrings(f *testing.F) {
	for _, s := range []string{
		"package x\na: \"s\"\nb: [\"x\", {c: \"y\"}]\n\"q\": {d: 1}\n\"r\": \"t\"\n",
		"package x\nimport \"strings\"\na: strings.ToUpper(\"k\")\nb: \"x\\(a)\"\n",
		"package x\nfor k, v in {a: \"1\"} {(k): v}\n",
		"package x\nX=\"lab\": \"v\"\na: *\"d\" | \"e\"\nlet y = \"z\"\nd: [...string] & [\"w\"]\n",
		// A field in the label of a field whose value is a string: the
		// walk met the outer value twice and the label's literals once.
		"package x\n[{a: \"s\"}]: \"x\"\n",
		"package x\n(\"a\" + {b: \"c\"}.b + \"d\"): \"v\"\ne: \"f\"\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		file, err := parser.ParseFile("f.cue", src, parser.ParseComments)
		if err != nil {
			return
		}
		facts, _, _, _, ok := nesting(file)
		if !ok {
			return
		}
		want := astWalkStrings(file)
		if len(facts.strings) != len(want) {
			t.Fatalf("%d string literals, ast.Walk %d", len(facts.strings), len(want))
		}
		for i := range want {
			if facts.strings[i] != want[i] {
				t.Fatalf("string literal %d is %s %q, ast.Walk's %s %q", i, facts.strings[i].Lit.Value, facts.strings[i].Label, want[i].Lit.Value, want[i].Label)
			}
		}
	})
}
