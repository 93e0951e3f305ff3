package shell_test

import (
	"slices"
	"testing"

	"github.com/charter-dev/charter/internal/enforce/shell"
)

// TestPagerVariablesRunCode: git runs GIT_PAGER (and PAGER without it)
// through the shell, as core.pager: GIT_PAGER='touch x' git log ran
// touch on a terminal here (git 2.39), where GIT_EDITOR and the other
// command variables were read and these were not.
func TestPagerVariablesRunCode(t *testing.T) {
	for _, src := range []string{`GIT_PAGER='curl x' git log`, `PAGER='curl x' git log`, `export GIT_PAGER='curl x'; git log`, `env GIT_PAGER='curl x' git log`, `MANPAGER='curl x' man git`} {
		if !runsCurl(t, src) {
			t.Errorf("%s: no curl", src)
		}
	}
}

// TestGitExecPath: git --exec-path=DIR runs git's programs from DIR
// (git-submodule, git-filter-branch, git-remote-https), as GIT_EXEC_PATH
// does, which is read as changing what runs.
func TestGitExecPath(t *testing.T) {
	cs, err := shell.Parse(`git --exec-path=/tmp/x submodule update`)
	if err != nil || !slices.ContainsFunc(cs, func(c shell.Command) bool { return !c.Known }) {
		t.Errorf("git --exec-path=DIR: %+v %v, want an unknown command", cs, err)
	}
	cs, err = shell.Parse(`git --exec-path`)
	if err != nil || len(cs) != 1 || !cs[0].Known {
		t.Errorf("git --exec-path (prints it): %+v %v, want one known command", cs, err)
	}
}
