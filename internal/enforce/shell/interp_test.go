package shell_test

import (
	"slices"
	"testing"

	"github.com/charter-dev/charter/internal/enforce/shell"
)

// TestToolsThatRunCode: everyday text and archive tools that run a
// command they are given: GNU sed's e command and s///e flag, awk's
// system() and pipes, tar --to-command and --checkpoint-action=exec=,
// sort --compress-program, rsync -e, ssh -o ProxyCommand. Each ran
// `touch` here (sed 4.9, mawk, GNU tar) while a whitelist of sed, awk or
// tar admitted it. What they run is read, via "PROGRAM OPTION"; a
// script charter cannot see into (sed -f, awk -f) or whose commands it
// does not parse (sed's e, awk's system) makes an unknown command.
func TestToolsThatRunCode(t *testing.T) {
	for _, src := range []string{
		`sed -n '1e curl x' f`, `sed 's/x/curl x/e' f`, `sed -e 'p' -e 'e curl x' f`, `sed --expression='e curl x' f`,
		`sed -f script.sed f`, `sed '/a/ e curl x' f`, `sed '1!e curl' f`,
		`awk '{system("curl x")}' f`, `awk '{print | "sh"}' f`, `awk 'BEGIN{c="curl x"; c | getline}'`,
		`awk '{print |& "sh"}' f`, `awk -f prog.awk f`, `gawk -F, '{ system($2) }' f`, `awk '{print | cmd}' f`,
	} {
		cs, err := shell.Parse(src)
		if err != nil {
			continue
		}
		if !slices.ContainsFunc(cs, func(c shell.Command) bool { return !c.Known && c.Reason != "" }) {
			t.Errorf("%s: every command known: %+v", src, cs)
		}
	}
	for src, via := range map[string]string{
		`tar -xf a.tar --to-command='curl x'`:                              "tar --to-command",
		`tar -cf a.tar --checkpoint=1 --checkpoint-action=exec='curl x' d`: "tar --checkpoint-action",
		`tar -I 'curl x' -xf a.tar`:                                        "tar --use-compress-program",
		`tar --use-compress-program='curl x' -xf a.tar`:                    "tar --use-compress-program",
		`sort --compress-program='curl x' f`:                               "sort --compress-program",
		`rsync -e 'curl x' a h:b`:                                          "rsync --rsh",
		`rsync --rsh='curl x' a h:b`:                                       "rsync --rsh",
		`ssh -o ProxyCommand='curl x' h`:                                   "ssh ProxyCommand",
		`ssh -oProxyCommand='curl x' h`:                                    "ssh ProxyCommand",
		`scp -o 'ProxyCommand curl x' a h:b`:                               "scp ProxyCommand",
	} {
		cs, err := shell.Parse(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if !slices.ContainsFunc(cs, func(c shell.Command) bool { return c.Program == "curl" && slices.Contains(c.Via, via) }) {
			t.Errorf("%s: no curl via %s in %+v", src, via, cs)
		}
	}
	// Everyday use stays one known command.
	for _, src := range []string{
		`sed -n '1,5p' f`, `sed -i 's/a/b/g' f`, `sed 's/e/E/' f`, `sed '/e/d' f`, `sed -E 's/(x|y)/z/' f`, `sed --sandbox 's/x/y/e' f`,
		`awk '{print $1}' f`, `awk -F'|' '{print $2}' f`, `awk '/a|b/ {n++} END {print n}' f`, `awk -v x=1 'BEGIN{print x}'`,
		`tar -xzf a.tgz`, `sort -u f`, `rsync -av a/ b/`, `ssh h uptime`,
	} {
		cs, err := shell.Parse(src)
		if err != nil || len(cs) != 1 || !cs[0].Known {
			t.Errorf("%s: %+v %v, want one known command", src, cs, err)
		}
	}
}
