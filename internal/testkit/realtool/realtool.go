// Package realtool finds the real programs some tests drive (the registry
// server, htpasswd, Debian's Python modules). A missing one skips the test
// on a developer's machine and fails it in CI (CI set), where .ci/run
// installs them.
package realtool

import (
	"os"
	"os/exec"
	"testing"
)

// InCI reports whether the tests run in CI, where a missing tool is a
// failure, not a reason to skip.
func InCI() bool {
	v := os.Getenv("CI")
	return v != "" && v != "false" && v != "0"
}

// Missing ends the test for a missing tool: Fatal in CI, Skip elsewhere.
func Missing(t testing.TB, msg string) {
	t.Helper()
	if InCI() {
		t.Fatal(msg + " (CI is set, so this test fails instead of skipping)")
	}
	t.Skip(msg)
}

// Need returns the path of program tool, which Debian package pkg
// provides.
func Need(t testing.TB, tool, pkg string) string {
	t.Helper()
	path, err := exec.LookPath(tool)
	if err != nil {
		Missing(t, tool+" is not installed; install it (Debian: apt-get install -y "+pkg+") to run this test")
	}
	return path
}

// Python is Debian's interpreter, which sees the modules apt installs (the
// python3 first on PATH may be another build).
const Python = "/usr/bin/python3"

// NeedPython checks that Debian's python3 imports module, which Debian
// package pkg provides, and returns the interpreter's path.
func NeedPython(t testing.TB, module, pkg string) string {
	t.Helper()
	if out, err := exec.Command(Python, "-c", "import "+module).CombinedOutput(); err != nil {
		Missing(t, Python+" cannot import "+module+"; install it (Debian: apt-get install -y "+pkg+") to run this test: "+string(out))
	}
	return Python
}

// Have reports whether program tool is on PATH.
func Have(tool string) bool {
	_, err := exec.LookPath(tool)
	return err == nil
}

// Long skips a slow test (it builds charter, or drives a real program)
// in the quick loop, `go test -short`; every other run, CI's `go test
// ./...` among them, runs it. what says what makes it slow. A missing
// program is Missing's to answer, never Long's.
func Long(t testing.TB, what string) {
	t.Helper()
	if testing.Short() {
		t.Skip(what + ": the full run (go test ./...) runs it")
	}
}
