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

// TestSuShell: su and runuser -s SHELL -c CODE run SHELL -c CODE: the
// shell named is the program (su -s /tmp/x -c ls ran /tmp/x, and only ls
// was listed).
func TestSuShell(t *testing.T) {
	for src, want := range map[string]string{
		`su -s /tmp/x root -c ls`:            "/tmp/x",
		`su --shell=/tmp/x -c ls`:            "/tmp/x",
		`su -c ls -s /tmp/x`:                 "/tmp/x",
		`runuser bob -c ls --shell=/tmp/x`:   "/tmp/x",
		`runuser -s /tmp/x bob -c ls`:        "/tmp/x",
		`runuser --shell /tmp/x bob -c 'ls'`: "/tmp/x",
	} {
		cs, err := shell.Parse(src)
		if err != nil || !slices.ContainsFunc(cs, func(c shell.Command) bool { return c.Path == want }) {
			t.Errorf("%s: %+v %v, want %s among the commands", src, cs, err, want)
		}
	}
	cs, err := shell.Parse(`su -s /bin/bash root -c 'rm -rf x'`)
	if err != nil || !slices.ContainsFunc(cs, func(c shell.Command) bool { return c.Program == "rm" && len(c.Privileged()) > 0 }) {
		t.Errorf("su -s /bin/bash -c 'rm -rf x': %+v %v, want rm, privileged", cs, err)
	}
}

// TestEnvironmentThatRunsCode: flock -c and script -c run their code
// with $SHELL (SHELL=/tmp/x flock f -c true ran /tmp/x here, util-linux
// 2.38), tar reads TAR_OPTIONS (--to-command=CMD) before its own options,
// and rsync runs RSYNC_RSH as rsync -e.
func TestEnvironmentThatRunsCode(t *testing.T) {
	for _, src := range []string{`SHELL=/tmp/x flock f -c true`, `SHELL=/tmp/x script -qc true /dev/null`, `export SHELL=/tmp/x; flock f -c true`, `TAR_OPTIONS='--to-command=curl' tar xf a.tar`} {
		cs, err := shell.Parse(src)
		if err != nil || !slices.ContainsFunc(cs, func(c shell.Command) bool { return len(c.RunChanging()) > 0 }) {
			t.Errorf("%s: %+v %v, want a command whose environment changes what runs", src, cs, err)
		}
	}
	cs, err := shell.Parse(`RSYNC_RSH='curl x' rsync -a a h:b`)
	if err != nil || !slices.ContainsFunc(cs, func(c shell.Command) bool { return c.Program == "curl" }) {
		t.Errorf("RSYNC_RSH: %+v %v, want curl", cs, err)
	}
}

// TestCodeInClustersAndSudoEnv: mapfile -tC CODE (options clustered, ran
// touch in bash 5.2) and sudo NAME=CMD for a command variable were not
// read.
func TestCodeInClustersAndSudoEnv(t *testing.T) {
	for _, src := range []string{`readarray -tC'curl x' -c 1 a < f`, `mapfile -tC 'curl x' a < f`, `sudo GIT_SSH_COMMAND='curl x' git fetch`} {
		if cs, err := shell.Parse(src); err != nil || !slices.ContainsFunc(cs, func(c shell.Command) bool { return c.Program == "curl" }) {
			t.Errorf("%s: %+v %v, want curl", src, cs, err)
		}
	}
	cs, _ := shell.Parse(`sudo GIT_SSH_COMMAND='curl x' git fetch`)
	for _, c := range cs {
		if c.Program == "curl" && len(c.Privileged()) == 0 {
			t.Errorf("sudo GIT_SSH_COMMAND=CMD: %+v, want CMD run by sudo", c)
		}
	}
}
