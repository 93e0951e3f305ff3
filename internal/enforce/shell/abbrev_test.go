package shell_test

import (
	"slices"
	"testing"

	"github.com/charter-dev/charter/internal/enforce/shell"
)

// runsCurl reports whether the command line lists curl, or a command
// charter cannot name.
func runsCurl(t *testing.T, src string) bool {
	t.Helper()
	cs, err := shell.Parse(src)
	if err != nil {
		return true // a caller denies it
	}
	return slices.ContainsFunc(cs, func(c shell.Command) bool { return c.Program == "curl" || !c.Known })
}

// TestAbbreviatedOptionsRunCode: GNU tar and sort (getopt_long), git's
// parse-options, sed and gawk take a long option by any unambiguous
// prefix: tar --to-com=CMD, sort --compress-prog=CMD, git rebase
// --exe=CMD, sed --expr='1e CMD' each ran touch here (GNU tar 1.34,
// coreutils sort, git 2.39, GNU sed 4.9) while only the full names were
// read.
func TestAbbreviatedOptionsRunCode(t *testing.T) {
	for _, src := range []string{
		`tar --to-com='curl x' -xf a.tar`,
		`tar --to-com 'curl x' -xf a.tar`,
		`tar --use-compress='curl x' -xf a.tar`,
		`tar --checkpoint=1 --checkpoint-act=exec='curl x' -cf a.tar d`,
		`tar --rsh-com='curl x' -xf h:a.tar`,
		`tar xIf 'curl x' a.tar`, `tar xfI a.tar 'curl x'`, `tar cvFf 'curl x' a.tar d`,
		`sort --compress-prog='curl x' f`,
		`rsync --rs='curl x' a h:b`,
		`git rebase --exe='curl x' HEAD~1`,
		`git rebase --exe 'curl x' HEAD~1`,
		`git difftool --extcm='curl x'`,
		`git fetch --upload-p='curl x' origin`,
		`git push --receive-p='curl x' origin`,
		`git grep --open-files='curl x' foo`,
		`git filter-branch --tree-filter='curl x' HEAD`,
		`sed --expr='1e curl x' f`,
		`sed --fil=script.sed f`,
		`awk --sour='BEGIN{system("curl x")}'`,
		`awk --source='BEGIN{system("curl x")}'`,
		`awk -e'BEGIN{system("curl x")}'`,
		`awk --fil=prog.awk f`,
		`awk --include=lib f`,
		`awk -E prog.awk f`,
		`awk -W exec prog.awk f`,
		`awk -Wexec prog.awk`,
		`awk -W source='BEGIN{system("curl x")}'`,
	} {
		if !runsCurl(t, src) {
			t.Errorf("%s: no curl and no unknown command", src)
		}
	}
	for _, src := range []string{`tar --totals -xf a.tar`, `tar xzf a.tgz`, `tar cvf I.tar d`, `tar --to-stdout -xf a.tar`, `sort --compress-program=gzip f`, `git rebase --empty=drop main`, `sed --expression='s/a/b/' f`, `awk --field-separator=: '{print $1}' f`} {
		cs, err := shell.Parse(src)
		if err != nil || slices.ContainsFunc(cs, func(c shell.Command) bool { return !c.Known }) {
			t.Errorf("%s: %+v %v, want known commands", src, cs, err)
		}
	}
}
