package shell_test

import (
	"slices"
	"testing"

	"github.com/charter-dev/charter/internal/enforce/shell"
)

// TestWrapperOptionSpellings: getopt reads env -vS'CODE' as -v -S CODE,
// env - CMD as env -i CMD, and a long option by any unambiguous prefix
// with its value in the next word (timeout --sig KILL 5 CMD, nice --adj
// 5 CMD, env --sp=CODE); each was read as another program ("rm -rf ",
// "5", "-") or as env running nothing, so rm -rf ran past
// confirm_destructive (each checked against GNU coreutils here).
func TestWrapperOptionSpellings(t *testing.T) {
	for _, src := range []string{
		`env -vS'rm -rf /x'`, `env -iS 'rm -rf /x'`, `env -vS 'rm -rf /x'`, `env - rm -rf /x`, `env --sp='rm -rf /x'`,
		`env --split 'rm -rf /x'`, `env -C /tmp -S'rm -rf /x'`, `env -iC/tmp rm -rf /x`, `env --ch /tmp rm -rf /x`,
		`timeout --sig KILL 5 rm -rf /x`, `nice --adj 5 rm -rf /x`, `sudo --us root rm -rf /x`, `xargs --max-a 1 rm -rf`,
	} {
		cs, err := shell.Parse(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if !slices.ContainsFunc(cs, func(c shell.Command) bool { return c.Program == "rm" && c.Destructive != "" }) {
			t.Errorf("%s: no rm -rf: %+v", src, cs)
		}
	}
}
