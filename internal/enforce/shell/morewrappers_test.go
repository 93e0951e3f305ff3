package shell_test

import (
	"slices"
	"testing"

	"github.com/charter-dev/charter/internal/enforce/shell"
)

// TestMoreWrappers: programs that run the command after their options
// hid it: `flock /tmp/l rm -rf x` was flock with arguments, and passed
// confirm_destructive, and `pkexec rm -rf /` (as root) passed no_sudo's
// wrapper check in the gate. Each is now read as the command it runs,
// named in via; pkexec and run0 run it as another user, as sudo does.
func TestMoreWrappers(t *testing.T) {
	for src, via := range map[string]string{
		"flock /tmp/l rm -rf x":             "flock",
		"flock -w 5 /tmp/l rm -rf x":        "flock",
		"flock -x /tmp/l -c 'rm -rf x'":     "flock -c",
		"taskset 0x1 rm -rf x":              "taskset",
		"taskset -c 0,1 rm -rf x":           "taskset",
		"chrt -f 10 rm -rf x":               "chrt",
		"numactl --cpunodebind=0 rm -rf x":  "numactl",
		"strace -f -o /tmp/t rm -rf x":      "strace",
		"ltrace rm -rf x":                   "ltrace",
		"unbuffer rm -rf x":                 "unbuffer",
		"caffeinate -i rm -rf x":            "caffeinate",
		"runuser -u bob -- rm -rf x":        "runuser",
		"runuser bob -c 'rm -rf x'":         "runuser -c",
		"setpriv --reuid=1000 rm -rf x":     "setpriv",
		"unshare -r rm -rf x":               "unshare",
		"systemd-run --user rm -rf x":       "systemd-run --user",
		"systemd-run --pty rm -rf x":        "systemd-run",
		"script -qc 'rm -rf x' /dev/null":   "script -c",
		"script -q -c 'rm -rf x' /dev/null": "script -c",
		"sg wheel -c 'rm -rf x'":            "sg -c",
		"pkexec rm -rf /":                   "pkexec",
		"pkexec --user root rm -rf /":       "pkexec",
		"run0 rm -rf /":                     "run0",
		"run0 -u root --chdir=/ rm -rf /":   "run0",
	} {
		cs, err := shell.Parse(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if !slices.ContainsFunc(cs, func(c shell.Command) bool { return c.Destructive != "" && slices.Contains(c.Via, via) }) {
			t.Errorf("%s: no destructive command via %s in %+v", src, via, cs)
		}
	}
	// systemd-run runs the command in the system manager, as root (run0
	// is systemd-run): it passed no_sudo and a whitelist of rm admitted
	// systemd-run rm -rf /etc. With --user it runs in the user's own.
	for _, src := range []string{"pkexec rm -rf /", "run0 rm -rf /", "runuser -u bob -- rm x", "systemd-run rm -rf /etc", "systemd-run -p User=root --pty rm x"} {
		cs, _ := shell.Parse(src)
		if len(cs) == 0 || len(cs[len(cs)-1].Privileged()) == 0 {
			t.Errorf("%s: not privileged: %+v", src, cs)
		}
	}
	if cs, _ := shell.Parse("systemd-run --user make"); len(cs) != 1 || len(cs[0].Privileged()) != 0 {
		t.Errorf("systemd-run --user make: %+v, want not privileged", cs)
	}
	// Without a command, a shell that reads its input: unknown.
	for _, src := range []string{"pkexec", "run0", "runuser -u bob"} {
		cs, _ := shell.Parse(src)
		if len(cs) != 1 || cs[0].Known {
			t.Errorf("%s: %+v, want one unknown command", src, cs)
		}
	}
}
