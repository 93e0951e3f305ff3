//go:build unix

package source_test

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/charter-dev/charter/internal/repo/source"
)

func TestDirFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.cue"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	fsys, err := source.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Opening a FIFO for reading would block; it must fail instead.
	if _, err := fsys.Open("pipe.cue"); !errors.Is(err, source.ErrNotRegular) {
		t.Errorf("Open(pipe.cue): got %v, want ErrNotRegular", err)
	}
}
