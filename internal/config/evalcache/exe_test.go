//go:build linux

// The running image is read through /proc/self/exe, on Linux only.

package evalcache_test

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/charter-dev/charter/internal/config/evalcache"
)

// TestExecutableReplaced: the identity of the running charter is its own,
// even when a new build replaces the file it was started from (go install
// while a lint runs): else the old build's entries would be written under
// the new build's name, and the new build would take them for its own.
func TestExecutableReplaced(t *testing.T) {
	if os.Getenv("EVALCACHE_REPLACE_SELF") != "" {
		before := evalcache.ExecutableID()
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		other := exe + ".new"
		if err := os.WriteFile(other, []byte("\x7fELF not this build"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(other, exe); err != nil {
			t.Fatal(err)
		}
		if after := evalcache.ExecutableID(); after != before || before == "" {
			t.Fatalf("identity %q after the file was replaced, %q before", after, before)
		}
		return
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(t.TempDir(), "evalcache.test")
	src, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(copyPath, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(copyPath, "-test.run=^TestExecutableReplaced$", "-test.v")
	cmd.Env = append(os.Environ(), "EVALCACHE_REPLACE_SELF=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}
