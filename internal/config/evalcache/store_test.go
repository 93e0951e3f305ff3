package evalcache

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// The running test binary's identity is its Go build ID (what `go tool
// buildid` prints), not a hash of the whole file.
func TestExecutableID(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "tool", "buildid", exe).Output()
	if err != nil {
		t.Fatalf("go tool buildid: %v", err)
	}
	want := strings.TrimSpace(string(out))
	if runtime.GOOS == "linux" {
		if got := executableID(); got != "buildid "+want {
			t.Fatalf("executableID() = %q, want %q", got, "buildid "+want)
		}
	}
}
