package fileerr

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWhy(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nokey.pub")
	_, err := os.ReadFile(missing)
	if path, why, ok := Why(err, "key file"); !ok || path != missing || why != "no such file" {
		t.Errorf("missing file: %q %q %v", path, why, ok)
	}
	_, err = os.ReadFile(dir)
	if _, why, ok := Why(err, "key file"); !ok || why != "is a directory, not a key file" {
		t.Errorf("folder: %q %v", why, ok)
	}
	if _, _, ok := Why(os.ErrClosed, "key file"); ok {
		t.Error("an error that is no file's: ok")
	}
}
