package bundle

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/charter-dev/charter/internal/artifact/bundlefile"
)

// A claim that fails leaves its target the empty folder it was: a first
// build then writes its fresh tree there (writeDir makes no folder for the
// tree's top). The claim of systems without rename(2) onto an empty
// folder removed the target first and left nothing.
func TestFailedClaimKeepsTarget(t *testing.T) {
	dir := t.TempDir()
	to := filepath.Join(dir, ".out.tmp-1")
	if err := os.Mkdir(to, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := claim(filepath.Join(dir, ".out.prev"), to); err == nil {
		t.Fatal("claiming a folder that does not exist succeeded")
	}
	fi, err := os.Stat(to)
	if err != nil || !fi.IsDir() {
		t.Fatalf("after a failed claim the target is gone: %v", err)
	}
	if err := writeFiles(to, bundlefile.Tree{"manifest.json": []byte("m")}, true, nil); err != nil {
		t.Errorf("a fresh write after a failed claim: %v", err)
	}
}
