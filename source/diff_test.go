package source

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/source/sourcetest"
)

// TestDiffTrees compares DiffTrees between every two commits of a history
// (and the empty tree) with the difference of the two trees listed whole.
func TestDiffTrees(t *testing.T) {
	t.Parallel()
	r := sourcetest.New(t)
	steps := []func(){
		func() {
			r.Write("c/a.cue", "a", "c/sub/b.cue", "b", "c/_x.cue", "x", "c/cue.mod/m.cue", "m", "c/n.txt", "n")
		},
		func() { r.Write("c/a.cue", "a2") },
		func() { r.Remove("c/sub"); r.Write("c/sub", "now a file") },
		func() { r.Remove("c/sub"); r.Write("c/sub/deep/er/d.cue", "d", "c/_hidden/h.cue", "h") },
		func() {
			if err := os.Chmod(filepath.Join(r.Dir, "c", "a.cue"), 0o755); err != nil {
				t.Fatal(err)
			}
		},
		func() { symlink(t, "a.cue", filepath.Join(r.Dir, "c", "link.cue")); r.Write("c/cue.mod/m.cue", "m2") },
		func() { r.Remove("c/sub/deep"); r.Write("c/z.cue", "z") },
		func() { r.Remove("c/a.cue", "c/link.cue", "c/sub") },
	}
	var trees []plumbing.Hash
	for i, step := range steps {
		step()
		r.Git("add", "-A")
		r.Git("commit", "-q", "--allow-empty", "-m", fmt.Sprint(i))
		trees = append(trees, plumbing.NewHash(r.Git("rev-parse", "HEAD:c")))
	}
	trees = append(trees, plumbing.ZeroHash)
	repo, err := Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	skips := map[string]func(string, bool) bool{
		"nil": nil,
		"load-like": func(name string, dir bool) bool {
			return strings.HasPrefix(name, "_") || dir && name == "cue.mod"
		},
	}
	for skipName, skip := range skips {
		for _, a := range trees {
			for _, b := range trees {
				got, err := repo.DiffTrees(a, b, skip)
				if err != nil {
					t.Fatal(err)
				}
				want := listDiff(listTree(t, repo, a, skip), listTree(t, repo, b, skip))
				if d := cmp.Diff(want, changeStrings(got)); d != "" {
					t.Errorf("skip %s: DiffTrees(%.7s, %.7s) (-lists +DiffTrees):\n%s", skipName, a, b, d)
				}
			}
		}
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skip("cannot make symlinks here:", err)
	}
}

// listTree lists every file of tree h (none for the zero hash) through the
// file system this package makes, as "mode hash" by path.
func listTree(t *testing.T, repo *Repo, h plumbing.Hash, skip func(string, bool) bool) map[string]string {
	t.Helper()
	out := map[string]string{}
	if h.IsZero() {
		return out
	}
	fsys := repo.CommitTree(plumbing.ZeroHash, h, sourcetest.Epoch)
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == "." {
			return err
		}
		if skip != nil && skip(d.Name(), d.IsDir()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			n := d.(*treeInfo).n
			out[p] = fmt.Sprintf("%v %s", fileMode(n.mode), n.hash)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// listDiff returns the changes between two listings, as changeStrings
// writes them, in order of path.
func listDiff(a, b map[string]string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range []map[string]string{a, b} {
		for p := range m {
			if !seen[p] && a[p] != b[p] {
				out = append(out, fmt.Sprintf("%s: %q -> %q", p, a[p], b[p]))
			}
			seen[p] = true
		}
	}
	slices.Sort(out)
	return out
}

func changeStrings(cs []TreeChange) []string {
	var out []string
	file := func(f TreeFile) string {
		if f == (TreeFile{}) {
			return ""
		}
		return fmt.Sprintf("%v %s", fileMode(f.Mode), f.Hash)
	}
	for _, c := range cs {
		out = append(out, fmt.Sprintf("%s: %q -> %q", c.Path, file(c.From), file(c.To)))
	}
	slices.Sort(out)
	return out
}
