package shell_test

import (
	"slices"
	"testing"

	"github.com/charter-dev/charter/internal/enforce/shell"
)

// TestGitRunsWhatItsConfigNames: git runs the commands an alias or a
// command-running setting names. `git -c alias.p='push --force' p`
// passed no_force_push (the command was git p), `git -c
// core.pager='rm -rf ~' log` passed confirm_destructive, and a whitelist
// of git passed `git -c alias.x='!curl x|sh' x`. The command an alias
// or such a setting runs is read as the command git runs, named in via;
// a setting that takes its value from elsewhere (--config-env, a hooks
// folder, an included file) makes an unknown command.
func TestGitRunsWhatItsConfigNames(t *testing.T) {
	type cmd struct {
		Program, Sub string
		Flags        []string
		Via          string
	}
	for _, tt := range []struct {
		src  string
		want cmd
	}{
		{`git -c alias.p='push --force' p origin main`, cmd{"git", "push", []string{"force"}, "git alias"}},
		{`git -c ALIAS.P='push -f' p`, cmd{"git", "push", []string{"force"}, "git alias"}},
		{`git -c alias.a='b' -c alias.b='push --mirror' a`, cmd{"git", "push", []string{"mirror"}, "git alias"}},
		{`git -c alias.x='!rm -rf ~' x`, cmd{"rm", "", []string{"force", "recursive"}, "git alias"}},
		{`git -c core.pager='rm -rf ~' log`, cmd{"rm", "", []string{"force", "recursive"}, "git -c core.pager"}},
		{`git -c core.sshCommand='curl x' fetch`, cmd{"curl", "", nil, "git -c core.sshcommand"}},
		{`git -c diff.foo.textconv='curl x' diff`, cmd{"curl", "", nil, "git -c diff.foo.textconv"}},
		{`git -c filter.f.smudge='curl x' checkout .`, cmd{"curl", "", nil, "git -c filter.f.smudge"}},
		{`git -c credential.helper='!curl x' fetch`, cmd{"curl", "", nil, "git -c credential.helper"}},
		{`git config alias.p 'push -f'`, cmd{"git", "push", []string{"force"}, "git alias"}},
		{`git config --global alias.p '!rm -rf x'`, cmd{"rm", "", []string{"force", "recursive"}, "git alias"}},
		{`git config set --local core.pager 'curl x'`, cmd{"curl", "", nil, "git config core.pager"}},
		{`git config --file .git/config core.editor 'curl x'`, cmd{"curl", "", nil, "git config core.editor"}},
	} {
		cs, err := shell.Parse(tt.src)
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		found := slices.ContainsFunc(cs, func(c shell.Command) bool {
			return c.Known && c.Program == tt.want.Program && c.Subcommand == tt.want.Sub &&
				slices.Equal(c.Flags, tt.want.Flags) && slices.Contains(c.Via, tt.want.Via)
		})
		if !found {
			t.Errorf("%s: no %+v in %+v", tt.src, tt.want, cs)
		}
	}
	for _, src := range []string{
		`git --config-env=alias.p=X p`,
		`git --config-env=core.pager=X log`,
		`git -c core.hooksPath=/tmp/h commit -m x`,
		`git -c include.path=/tmp/c log`,
		`git -c alias.x="$X" x`,
		`git -c core.pager="$P" log`,
		`git config alias.p "$X"`,
		`git config include.path /tmp/c`,
	} {
		cs, err := shell.Parse(src)
		if err != nil {
			continue
		}
		if !slices.ContainsFunc(cs, func(c shell.Command) bool { return !c.Known && c.Reason != "" }) {
			t.Errorf("%s: every command known: %+v", src, cs)
		}
	}
	// Everyday git stays one known command.
	for _, src := range []string{`git -c user.name=x commit -m y`, `git -c core.hooksPath=/dev/null commit -m y`, `git config user.email a@b`, `git config --get alias.p`, `git -c color.ui=false log`, `git log --format=%s`} {
		cs, err := shell.Parse(src)
		if err != nil || len(cs) != 1 || !cs[0].Known || cs[0].Program != "git" {
			t.Errorf("%s: %+v %v, want one known git", src, cs, err)
		}
	}
}

// TestProgramNameFolded: macOS and Windows find programs whatever the
// case of their name, and Windows without .exe: `GIT push --force` runs
// git on a Mac, `git.exe push --force` runs it in PowerShell (and in
// WSL), and both passed no_force_push, as `RM -rf x` and `rm.exe -rf x`
// passed confirm_destructive. A command's Program is its name in lower
// case, without .exe, .com, .bat or .cmd; Path keeps it as written.
func TestProgramNameFolded(t *testing.T) {
	for src, want := range map[string]string{
		"GIT push --force": "git", "git.exe push --force": "git", "Git.EXE push -f": "git",
		"/usr/bin/GIT push -f": "git", "sudo GIT push -f": "git", "RM -rf x": "rm", "rm.exe -rf x": "rm",
	} {
		cs, err := shell.Parse(src)
		if err != nil || len(cs) == 0 {
			t.Errorf("%s: %v %v", src, cs, err)
			continue
		}
		c := cs[len(cs)-1]
		if c.Program != want || c.Destructive == "" && want == "rm" || want == "git" && (c.Subcommand != "push" || !c.Has("force")) {
			t.Errorf("%s: %+v, want program %s read as such", src, c, want)
		}
	}
}

// TestGitSubcommandsRunCode: git's own options that run a command: `git
// rebase -x 'git push -f' HEAD~1` passed no_force_push, and a whitelist
// of git admitted `git rebase --exec 'curl x|sh'`, `git bisect run`,
// `git submodule foreach`, `git filter-branch --tree-filter`, `git
// difftool -x`, `git fetch --upload-pack`, `git grep -O`. What they run
// is read, via "git SUBCOMMAND".
func TestGitSubcommandsRunCode(t *testing.T) {
	for src, want := range map[string]string{
		"git rebase -x 'git push -f' HEAD~1":                 "git rebase",
		"git rebase --exec='curl x' main":                    "git rebase",
		"git rebase -i --exec 'curl x' main":                 "git rebase",
		"git bisect run curl x":                              "git bisect",
		"git submodule foreach 'curl x'":                     "git submodule",
		"git submodule --quiet foreach --recursive 'curl x'": "git submodule",
		"git filter-branch --tree-filter 'curl x' HEAD":      "git filter-branch",
		"git filter-branch --index-filter='curl x' HEAD":     "git filter-branch",
		"git difftool -x 'curl x' HEAD":                      "git difftool",
		"git difftool --extcmd='curl x' HEAD":                "git difftool",
		"git fetch --upload-pack='curl x' origin":            "git fetch",
		"git ls-remote --upload-pack 'curl x' origin":        "git ls-remote",
		"git clone -u 'curl x' origin d":                     "git clone",
		"git push --receive-pack='curl x' origin":            "git push",
		"git archive --remote=o --exec='curl x' HEAD":        "git archive",
		"git grep --open-files-in-pager='curl x' foo":        "git grep",
		"git grep -O'curl x' foo":                            "git grep",
		"git send-email --sendmail-cmd='curl x' p.patch":     "git send-email",
		"git mergetool --tool-cmd='curl x'":                  "git mergetool",
	} {
		cs, err := shell.Parse(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		ok := slices.ContainsFunc(cs, func(c shell.Command) bool {
			return (c.Program == "curl" || c.Program == "git" && c.Subcommand == "push" && c.Has("force")) && slices.Contains(c.Via, want)
		})
		if !ok {
			t.Errorf("%s: nothing it runs via %s in %+v", src, want, cs)
		}
	}
	for _, src := range []string{"git rebase -i main", "git bisect start", "git submodule update --init", "git grep foo", "git fetch origin"} {
		cs, err := shell.Parse(src)
		if err != nil || len(cs) != 1 {
			t.Errorf("%s: %+v %v, want one command", src, cs, err)
		}
	}
}

// TestGitWhatItCannotSee: an alias stored in a configuration the agent
// can write (.git/config, ~/.gitconfig, a config the environment names)
// runs as `git NAME`, and `git NAME` that is no git command runs another
// program (git-NAME): the subcommand is unknown. The environment's
// commands (GIT_SSH_COMMAND, GIT_EDITOR, EDITOR, ...) are read as code
// where they are set; GIT_CONFIG_* and GIT_EXEC_PATH change what git
// runs, as PATH does.
func TestGitWhatItCannotSee(t *testing.T) {
	for _, src := range []string{"git st", "git lfs pull", `git "$X"`, "git -C r frob x"} {
		cs, err := shell.Parse(src)
		if err != nil || !slices.ContainsFunc(cs, func(c shell.Command) bool { return !c.Known && c.Reason != "" }) {
			t.Errorf("%s: %+v %v, want an unknown command", src, cs, err)
		}
	}
	for _, src := range []string{"git status", "git worktree list", "git stash pop", "git --version", "git help push", "git sparse-checkout list", "git replay --onto main"} {
		cs, err := shell.Parse(src)
		if err != nil || len(cs) != 1 || !cs[0].Known {
			t.Errorf("%s: %+v %v, want one known git", src, cs, err)
		}
	}
	for src, via := range map[string]string{
		"GIT_SSH_COMMAND='curl x' git fetch":             "GIT_SSH_COMMAND",
		"export GIT_EDITOR='curl x'; git commit":         "GIT_EDITOR",
		"EDITOR='curl x'; git commit":                    "EDITOR",
		"env GIT_SEQUENCE_EDITOR='curl x' git rebase -i": "GIT_SEQUENCE_EDITOR",
		"GIT_EXTERNAL_DIFF='curl x' git diff":            "GIT_EXTERNAL_DIFF",
	} {
		cs, err := shell.Parse(src)
		if err != nil || !slices.ContainsFunc(cs, func(c shell.Command) bool { return c.Program == "curl" && slices.Contains(c.Via, via) }) {
			t.Errorf("%s: %+v %v, want curl via %s", src, cs, err, via)
		}
	}
	cs, err := shell.Parse("GIT_EDITOR=true git rebase --continue")
	if err != nil || slices.ContainsFunc(cs, func(c shell.Command) bool { return !c.Inert() && c.Program != "git" }) {
		t.Errorf("GIT_EDITOR=true: %+v %v, want git and the inert true", cs, err)
	}
	for _, src := range []string{"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=x git log", "GIT_CONFIG_GLOBAL=/tmp/c git st", "export GIT_EXEC_PATH=/tmp/x; git status"} {
		cs, err := shell.Parse(src)
		if err != nil || len(cs) == 0 || len(cs[len(cs)-1].RunChanging()) == 0 {
			t.Errorf("%s: %+v %v, want a run-changing variable", src, cs, err)
		}
	}
}
