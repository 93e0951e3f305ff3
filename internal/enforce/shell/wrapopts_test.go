package shell_test

import (
	"slices"
	"testing"

	"github.com/charter-dev/charter/internal/enforce/shell"
)

// TestWrapperOptionsThatRunCode: strace -o '|CMD' pipes its trace to
// CMD (ran touch here, strace 6.1), scp and sftp -S run the program
// given, flock -- FILE -c CODE runs CODE, pwsh -CommandWithArgs runs its
// code: each was listed as the wrapped command alone (a whitelist of git
// admitted strace -o '|curl x|sh' git status).
func TestWrapperOptionsThatRunCode(t *testing.T) {
	for _, src := range []string{
		`strace -o '|curl x' git status`, `strace -o'!curl x' git status`, `strace --output='|curl x' git status`, `strace -fo '|curl x' git status`,
		`scp -S curl a h:b`, `sftp -S curl h`, `flock -- /tmp/l -c 'curl x'`, `pwsh -CommandWithArgs 'curl x'`, `pwsh -cwa 'curl x'`,
	} {
		if !runsCurl(t, src) {
			t.Errorf("%s: no curl", src)
		}
	}
	cs, err := shell.Parse(`strace -o '|tee t' rm -rf x`)
	if err != nil || !slices.ContainsFunc(cs, func(c shell.Command) bool { return c.Program == "rm" }) {
		t.Errorf("strace -o '|CMD' CMD: %+v %v, want the traced rm too", cs, err)
	}
	cs, err = shell.Parse(`strace -o trace.txt git status`)
	if err != nil || len(cs) != 1 || cs[0].Program != "git" {
		t.Errorf("strace -o FILE: %+v %v, want git", cs, err)
	}
}
