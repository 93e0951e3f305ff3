//go:build unix

package bundle

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWriteDirModes checks that bundle files are 0644 and folders 0755
// whatever the umask, so that a rebuild keeps them.
func TestWriteDirModes(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	dir := filepath.Join(t.TempDir(), "dist")
	for range 2 {
		if err := WriteDir(dir, Tree{"manifest.json": []byte("m"), "a/b.json": []byte("b")}); err != nil {
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
	trees := make([]Tree, 12)
	for i := range trees {
		trees[i] = Tree{"manifest.json": []byte{byte('a' + i)}, "agents/x/agent.json": []byte{byte('a' + i)}}
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
