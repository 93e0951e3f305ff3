package load_test

import (
	"os"
	"slices"
	"testing"

	"cuelang.org/go/cue/ast"

	"github.com/charter-dev/charter/internal/config/load"
)

// File.Comments holds every comment group of the file, in the order
// ast.Walk visits them.
func TestFileComments(t *testing.T) {
	for _, root := range []string{"../../../examples/dev-team", "../../../examples/assistant"} {
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

// Comments attached to attributes are collected too: a declaration
// attribute (@x() on a line of its own) holds the comment that follows it
// on its line, and lint's ignore comments are read from File.Comments.
func TestFileCommentsOnAttributes(t *testing.T) {
	srcs := []string{
		"package charter\n\n@attr() // c1\nagents: a: {name: \"A\", type: \"t\"}\n",
		"package charter\n\nagents: a: {\n\t@embed() // c2\n\tname: \"A\"\n\ttype: \"t\" @x() // c3\n}\n",
	}
	for _, src := range srcs {
		dir := t.TempDir()
		if err := os.WriteFile(dir+"/a.cue", []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		repo, _, err := load.Load(os.DirFS(dir), dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(repo.Files) != 1 {
			t.Fatalf("%q: %d files loaded", src, len(repo.Files))
		}
		f := repo.Files[0]
		var want []string
		ast.Walk(f.Syntax, func(n ast.Node) bool {
			if g, ok := n.(*ast.CommentGroup); ok {
				want = append(want, g.Text())
				return false
			}
			return true
		}, nil)
		var got []string
		for _, g := range f.Comments {
			got = append(got, g.Text())
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: comments %q, want %q", src, got, want)
		}
	}
}
