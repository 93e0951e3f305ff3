//go:build unix

package bundle

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"github.com/charter-dev/charter/internal/artifact/bundlefile"
)

// TestWriteDirModes checks that bundle files are 0644 and folders 0755
// whatever the umask, so that a rebuild keeps them.
func TestWriteDirModes(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	dir := filepath.Join(t.TempDir(), "dist")
	for range 2 {
		if err := WriteDir(dir, bundlefile.Tree{"manifest.json": []byte("m"), "a/b.json": []byte("b")}); err != nil {
			t.Fatal(err)
		}
	}
	for p, want := range map[string]os.FileMode{"manifest.json": 0o644, "a/b.json": 0o644, "a": 0o755, ".": 0o755} {
		fi, err := os.Stat(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", p, fi.Mode().Perm(), want)
		}
	}
}

// TestConcurrentBuilds runs builds into one directory at once: none may
// fail because another removed its temporary directory, and the bundle
// left is one of theirs, whole.
func TestConcurrentBuilds(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dist")
	trees := make([]bundlefile.Tree, 12)
	for i := range trees {
		trees[i] = bundlefile.Tree{"manifest.json": []byte{byte('a' + i)}, "agents/x/agent.json": []byte{byte('a' + i)}}
	}
	errs := make(chan error, len(trees))
	for _, tree := range trees {
		go func() { errs <- WriteDir(dir, tree) }()
	}
	for range trees {
		if err := <-errs; err != nil {
			t.Errorf("WriteDir: %v", err)
		}
	}
	m, _ := os.ReadFile(filepath.Join(dir, "manifest.json"))
	a, _ := os.ReadFile(filepath.Join(dir, "agents/x/agent.json"))
	if len(m) != 1 || string(m) != string(a) {
		t.Errorf("the bundle left mixes builds: manifest %q, agent %q", m, a)
	}
}

// A first build (a fresh temporary tree: nothing compared or removed)
// writes what a rebuild over an empty previous bundle writes, modes
// included, under a umask that takes bits away and one that does not.
func TestFreshWriteMatchesUpdate(t *testing.T) {
	tree := bundlefile.Tree{"manifest.json": []byte("m"), "a/b.json": []byte("b"), "a/c/d.json": []byte("d"), "e.json": []byte("")}
	for _, mask := range []int{0o022, 0o077} {
		old := syscall.Umask(mask)
		fresh, update := t.TempDir(), t.TempDir()
		if err := writeFiles(fresh, tree, true, nil); err != nil {
			t.Fatal(err)
		}
		if err := writeFiles(update, tree, false, nil); err != nil {
			t.Fatal(err)
		}
		syscall.Umask(old)
		if got, want := listTree(t, fresh), listTree(t, update); !slices.Equal(got, want) {
			t.Errorf("umask %03o: fresh write %v, update %v", mask, got, want)
		}
	}
}

// listTree lists every file and folder under dir with its mode and, for a
// file, its bytes.
func listTree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		fi, err := e.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		line := rel + " " + fi.Mode().String()
		if !e.IsDir() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			line += " " + string(b)
		}
		out = append(out, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
