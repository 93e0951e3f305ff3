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

// TestGitLastSettingAndMoreCommandKeys: git takes an alias's last value
// (git -c alias.x=status -c alias.x='!touch f' x ran touch in git
// 2.39, where the first was read), and runs trailer.*.cmd and
// .command, gpg.ssh.defaultKeyCommand (each ran touch here),
// submodule.*.update=!CMD, sendemail's headerCmd and smtpServer, and a
// tool's path (browser, man, difftool, mergetool).
func TestGitLastSettingAndMoreCommandKeys(t *testing.T) {
	for _, src := range []string{
		`git -c alias.x=status -c alias.x='!curl x' x`,
		`git -c trailer.sign.cmd='curl x' commit -m m --trailer sign=x`,
		`git -c trailer.sign.command='curl x' interpret-trailers`,
		`git -c gpg.format=ssh -c gpg.ssh.defaultKeyCommand='curl x' commit -S -m s`,
		`git -c submodule.m.update='!curl x' submodule update`,
		`git -c sendemail.headerCmd='curl x' send-email a.patch`,
		`git -c sendemail.smtpServer=/tmp/curl send-email a.patch`,
		`git -c difftool.x.path=/tmp/curl difftool -t x`,
		`git config trailer.sign.cmd 'curl x'`,
	} {
		cs, err := shell.Parse(src)
		if err != nil || !slices.ContainsFunc(cs, func(c shell.Command) bool { return c.Program == "curl" || !c.Known }) {
			t.Errorf("%s: %+v %v, want curl or an unknown command", src, cs, err)
		}
	}
	for _, src := range []string{`git -c alias.x='!curl x' -c alias.x=status x`, `git -c submodule.m.update=rebase submodule update`, `git -c sendemail.smtpServer=smtp.example.com send-email a.patch`} {
		cs, err := shell.Parse(src)
		if err != nil || slices.ContainsFunc(cs, func(c shell.Command) bool { return c.Program == "curl" || !c.Known }) {
			t.Errorf("%s: %+v %v, want git alone", src, cs, err)
		}
	}
}

// TestCommandVarsSetByBuiltins: read GIT_SSH_COMMAND < f and command
// export GIT_SSH_COMMAND='CMD' set the command git runs, where only an
// assignment the parser sees was read.
func TestCommandVarsSetByBuiltins(t *testing.T) {
	for _, src := range []string{
		`read GIT_SSH_COMMAND < f; export GIT_SSH_COMMAND; git fetch`,
		`printf -v GIT_PAGER '%s' "$x"; export GIT_PAGER; git log`,
		`command export GIT_SSH_COMMAND='curl x'; git fetch`,
		`builtin declare -x EDITOR='curl x'; git commit`,
		`declare -n ref=GIT_SSH_COMMAND; ref='curl x'; export GIT_SSH_COMMAND; git fetch`,
	} {
		if !runsCurl(t, src) {
			t.Errorf("%s: no curl and no unknown command", src)
		}
	}
	for _, src := range []string{`read x < f; git log`, `export GIT_PAGER; git log`, `printf '%s\n' GIT_PAGER`} {
		cs, err := shell.Parse(src)
		if err != nil || slices.ContainsFunc(cs, func(c shell.Command) bool { return !c.Known }) {
			t.Errorf("%s: %+v %v, want known commands", src, cs, err)
		}
	}
}

// TestGitConfigSetWithOtherOptions: git config --no-includes core.pager
// CMD (or --show-origin, or an option a newer git adds) sets the pager,
// and only the options charter listed left KEY VALUE a setting.
func TestGitConfigSetWithOtherOptions(t *testing.T) {
	for _, src := range []string{`git config --no-includes core.pager 'curl x'`, `git config --show-origin alias.x '!curl x'`} {
		if !runsCurl(t, src) {
			t.Errorf("%s: no curl", src)
		}
	}
	for _, src := range []string{`git config --get core.pager`, `git config --get-regexp alias '.*'`, `git config --unset core.pager`, `git config -l`, `git config --rename-section a b`} {
		cs, err := shell.Parse(src)
		if err != nil || len(cs) != 1 || !cs[0].Known {
			t.Errorf("%s: %+v %v, want git alone", src, cs, err)
		}
	}
}
