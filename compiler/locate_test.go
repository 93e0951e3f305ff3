package compiler

import (
	"os"
	"testing"

	"cuelang.org/go/cue"

	"github.com/charter-dev/charter/internal/config/fieldpath"
	"github.com/charter-dev/charter/internal/config/load"
)

// Pos, which looks declarations up once, gives the position load.Locate
// gives from the roots for every path of the examples (fields and list
// elements, the standard library's too) and for paths below them that do
// not exist.
func TestLocatorMatchesLocate(t *testing.T) {
	for _, root := range []string{"../examples/dev-team", "../examples/assistant"} {
		repo, _, err := load.Load(os.DirFS(root), root)
		if err != nil {
			t.Fatal(err)
		}
		l := NewLocator(repo)
		roots := []cue.Value{repo.Value, repo.Schema.Stdlib}
		var paths []fieldpath.Path
		var walk func(v cue.Value, p fieldpath.Path)
		walk = func(v cue.Value, p fieldpath.Path) {
			if len(p) > 7 {
				return
			}
			paths = append(paths, p, append(p[:len(p):len(p)], "nope", "deeper"))
			switch v.IncompleteKind() {
			case cue.StructKind:
				it, err := v.Fields()
				if err != nil {
					return
				}
				for it.Next() {
					walk(it.Value(), append(p[:len(p):len(p)], it.Selector().Unquoted()))
				}
			case cue.ListKind:
				it, err := v.List()
				if err != nil {
					return
				}
				for i := 0; it.Next(); i++ {
					walk(it.Value(), append(p[:len(p):len(p)], fieldpath.Index(i)))
				}
			}
		}
		for _, r := range roots {
			it, err := r.Fields()
			if err != nil {
				t.Fatal(err)
			}
			for it.Next() {
				walk(it.Value(), fieldpath.Path{it.Selector().Unquoted()})
			}
		}
		if len(paths) < 500 {
			t.Fatalf("%s: %d paths", root, len(paths))
		}
		for _, p := range paths {
			want := Position{}
			if pos := load.Locate(roots, p, load.ValuePos, nil); pos.IsValid() {
				want = l.chars(Position{File: pos.Filename(), Line: pos.Line(), Column: pos.Column()})
			}
			if got := l.Pos(p...); got != want {
				t.Errorf("%s: Pos(%s) = %+v, Locate %+v", root, p, got, want)
			}
		}
	}
}
