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

	"github.com/charter-dev/charter/internal/repo/source/sourcetest"
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
	// Trees Git would not write: entries out of order, and a submodule.
	blob := plumbing.NewHash(r.Git("rev-parse", "HEAD~1:c/z.cue"))
	for _, entries := range [][]string{
		{"100644 z.cue", "100644 a.cue"},
		{"100644 a.cue", "160000 mod", "100644 z.cue"},
	} {
		var raw strings.Builder
		for _, e := range entries {
			raw.WriteString(e + "\x00" + string(blob[:]))
		}
		trees = append(trees, plumbing.NewHash(r.GitStdin(raw.String(), "hash-object", "-t", "tree", "-w", "--literally", "--stdin")))
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

func TestGitCompare(t *testing.T) {
	tests := []struct {
		a    string
		aDir bool
		b    string
		bDir bool
		want int
	}{
		{"a", false, "b", false, -1},
		{"a", false, "a", false, 0},
		{"a", true, "a", true, 0},
		{"a", false, "a", true, -1},     // "a" < "a/"
		{"a.cue", false, "a", true, -1}, // "a.cue" < "a/": '.' < '/'
		{"a0", false, "a", true, 1},     // "a0" > "a/": '0' > '/'
		{"ab", false, "a", false, 1},
		{"a", true, "ab", false, -1}, // "a/" < "ab"
	}
	for _, tt := range tests {
		if got := gitCompare([]byte(tt.a), tt.aDir, []byte(tt.b), tt.bDir); got != tt.want {
			t.Errorf("gitCompare(%q, %v, %q, %v) = %d, want %d", tt.a, tt.aDir, tt.b, tt.bDir, got, tt.want)
		}
		if got := gitCompare([]byte(tt.b), tt.bDir, []byte(tt.a), tt.aDir); got != -tt.want {
			t.Errorf("gitCompare(%q, %v, %q, %v) = %d, want %d", tt.b, tt.bDir, tt.a, tt.aDir, got, -tt.want)
		}
	}
}
