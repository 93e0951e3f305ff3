package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(name, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(name, []byte("new"), PermOf(name, 0o644)); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(name)
	if err != nil || string(b) != "new" {
		t.Fatalf("read %q, %v; want new", b, err)
	}
	fi, _ := os.Stat(name)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600 kept", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("left %d files, want only f.txt", len(entries))
	}
	if got := PermOf(filepath.Join(dir, "none"), 0o644); got != 0o644 {
		t.Errorf("PermOf(missing) = %v, want 0644", got)
	}
	if err := Write(filepath.Join(dir, "no", "such"), []byte("x"), 0o644); err == nil {
		t.Error("Write into a missing folder: no error")
	}
}
