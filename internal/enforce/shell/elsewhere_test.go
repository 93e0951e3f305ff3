package shell_test

import (
	"slices"
	"testing"

	"github.com/charter-dev/charter/internal/enforce/shell"
)

// TestConfigElsewhere: a program that reads its configuration from a file
// the command names, or from a place a variable moves, runs what that file
// says, which charter does not read. `ssh -F FILE` runs FILE's `Match exec
// "CMD"` even with -G (checked against OpenSSH), and `git --git-dir=DIR`
// or GIT_DIR=DIR makes DIR/config git's configuration (core.fsmonitor,
// aliases) though DIR is no .git folder; HOME and XDG_CONFIG_HOME move
// git's global configuration. Each was a known git or ssh command; each
// is unknown now. The everyday forms stay known.
func TestConfigElsewhere(t *testing.T) {
	for _, src := range []string{
		`ssh -F /tmp/cfg host true`,
		`ssh -F/tmp/cfg host`,
		`ssh -vF /tmp/cfg host`,
		`scp -F cfg a host:b`,
		`sftp -F cfg host`,
		`git --git-dir=/tmp/x status`,
		`git --git-dir /tmp/x log`,
		`GIT_DIR=/tmp/x git status`,
		`export GIT_DIR=/tmp/x; git status`,
		`env GIT_DIR=/tmp/x git status`,
		`GIT_COMMON_DIR=/tmp/x git status`,
		`HOME=/tmp/h git status`,
		`XDG_CONFIG_HOME=/tmp/h git log`,
		`export HOME=/tmp/h && git diff`,
		`git --git-dir="$D" log`,
	} {
		cs, err := shell.Parse(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if !hasUnknown(t, src, cs) {
			t.Errorf("%s: every command known: %+v", src, cs)
		}
	}
	for _, src := range []string{
		`ssh host true`, `ssh -F /dev/null host`, `ssh -F none host`, `git status`, `git diff --stat`,
		`git -C sub status`, `git --git-dir=.git log`, `git --git-dir=repo/.git log`, `git --work-tree=w status`,
		`git log -p -- .git/config`, `HOME=/tmp/h ls`,
	} {
		cs, err := shell.Parse(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if hasUnknown(t, src, cs) {
			t.Errorf("%s: unknown: %+v", src, cs)
		}
	}
	// HOME and XDG_CONFIG_HOME change what a whitelisted program loads.
	cs, _ := shell.Parse(`HOME=/tmp/h npm test`)
	if len(cs) != 1 || !slices.Contains(cs[0].RunChanging(), "HOME") {
		t.Errorf("HOME=... npm test: RunChanging %v", cs)
	}
}

// TestGitCloneConfig: git clone --template=DIR (and git init's) copies
// DIR's hooks into the new repository, and clone runs post-checkout from
// there at once (checked with git 2.39); git clone -c KEY=VALUE stores
// KEY in the new repository's config, where a later git status runs
// core.fsmonitor. Both were a plain git clone.
func TestGitCloneConfig(t *testing.T) {
	for _, src := range []string{
		`git clone --template=/tmp/t https://x/r.git`, `git clone --template /tmp/t r d`, `git init --templ=/tmp/t d`,
		`git -c init.templateDir=/tmp/t init d`, `git clone -c core.hooksPath=/tmp/h r d`,
	} {
		cs, err := shell.Parse(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if !hasUnknown(t, src, cs) {
			t.Errorf("%s: every command known: %+v", src, cs)
		}
	}
	for _, tt := range []struct{ src, via string }{
		{`git clone -c core.fsmonitor='curl x' r d`, "git clone -c core.fsmonitor"},
		{`git clone --config=core.pager='curl x' r d`, "git clone -c core.pager"},
		{`git clone --config alias.st='!curl x' r d`, "git alias"},
	} {
		cs, err := shell.Parse(tt.src)
		if err != nil || !slices.ContainsFunc(cs, func(c shell.Command) bool { return c.Program == "curl" && slices.Contains(c.Via, tt.via) }) {
			t.Errorf("%s: no curl via %s: %+v, %v", tt.src, tt.via, cs, err)
		}
	}
	for _, src := range []string{`git clone https://x/r.git`, `git clone -c user.name=x r d`, `git init`} {
		cs, _ := shell.Parse(src)
		if hasUnknown(t, src, cs) {
			t.Errorf("%s: unknown: %+v", src, cs)
		}
	}
}
