package load_test

import (
	"os"
	"testing"

	"cuelang.org/go/cue/ast"

	"github.com/charter-dev/charter/load"
)

// File.Comments holds every comment group of the file, in the order
// ast.Walk visits them.
func TestFileComments(t *testing.T) {
	for _, root := range []string{"../examples/dev-team", "../examples/assistant"} {
		repo, _, err := load.Load(os.DirFS(root), root)
		if err != nil {
			t.Fatal(err)
		}
		total := 0
		for _, f := range repo.Files {
			var want []*ast.CommentGroup
			ast.Walk(f.Syntax, func(n ast.Node) bool {
				if g, ok := n.(*ast.CommentGroup); ok {
					want = append(want, g)
					return false
				}
				return true
			}, nil)
			if len(want) != len(f.Comments) {
				t.Fatalf("%s: %d comment groups, want %d", f.Path, len(f.Comments), len(want))
			}
			for i := range want {
				if want[i] != f.Comments[i] {
					t.Errorf("%s: comment group %d is %q, want %q", f.Path, i, f.Comments[i].Text(), want[i].Text())
				}
			}
			total += len(want)
		}
		if total == 0 {
			t.Errorf("%s: no comments found", root)
		}
	}
}
