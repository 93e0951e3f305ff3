package shell

import (
	"slices"
	"strings"
)

// A wrapper reads a command that runs another command (or code), and
// reads that one.
type wrapper func(r *reader, c Command, via []string, depth int) error

var wrappers map[string]wrapper

func init() {
	wrappers = map[string]wrapper{
		"env":     readEnv,
		"sudo":    readSudo,
		"doas":    readDoas,
		"su":      readSu,
		"xargs":   readXargs,
		"nice":    simple("n", "adjustment"),
		"nohup":   simple(""),
		"setsid":  simple(""),
		"stdbuf":  simple("ioe", "input", "output", "error"),
		"ionice":  simple("cnp", "class", "classdata", "pid"),
		"timeout": readTimeout,
		"time":    simple("fo", "format", "output"),
		"command": readCommand,
		"builtin": simple(""),
		"exec":    simple("a"),
		"chroot":  readChroot,
		"busybox": readBusybox,
		"eval":    readEval,
		"trap":    readTrap,
		"watch":   readWatch,
		"find":    readFind,
		"git":     readGit,
		// morewrappers.go
		"flock":       readFlock,
		"taskset":     afterOperand(""),
		"chrt":        afterOperand("TPD", "sched-runtime", "sched-period", "sched-deadline"),
		"numactl":     simple("NmCipP", "interleave", "membind", "cpunodebind", "physcpubind", "preferred", "cpubind", "preferred-many"),
		"strace":      readStrace,
		"ltrace":      simple("aAeFlnopsuwx", "output", "indent", "align"),
		"unbuffer":    simple(""),
		"caffeinate":  simple("tw"),
		"runuser":     readRunuser,
		"setpriv":     simple("", "reuid", "regid", "ruid", "rgid", "euid", "egid", "groups", "inh-caps", "ambient-caps", "bounding-set", "securebits", "pdeathsig", "selinux-label", "apparmor-profile", "landlock-access", "landlock-rule", "rlimit"),
		"unshare":     simple("SGRw", "map-user", "map-group", "map-users", "map-groups", "setuid", "setgid", "setgroups", "propagation", "root", "wd", "monotonic", "boottime"),
		"systemd-run": readSystemdRun,
		"script":      readScript,
		"sg":          readSg,
		"pkexec":      asUser("", "user"),
		"run0":        asUser("ugD", "user", "group", "chdir", "property", "description", "slice", "nice", "setenv", "machine", "unit", "background"),
		// PowerShell's (powershell.go).
		"iex":               readInvokeExpression,
		"invoke-expression": readInvokeExpression,
		"powershell":        readPowerShell,
		"pwsh":              readPowerShell,
		"cmd":               readCmd,
		"start-process":     readStartProcess,
		"saps":              readStartProcess,
		"start":             readStartProcess,
	}
	for _, sh := range []string{"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh", "fish"} {
		wrappers[sh] = readShell
	}
}

// splitOptions splits args at the first operand (or after "--"), the
// options before it (withValue: the short options that take the next
// word as their value, and long ones, given without dashes, that do when
// not written --name=value). It returns the options with their values and
// the rest.
func splitOptions(args []string, withValue string, longWithValue ...string) (opts, rest []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(opts, a), args[i+1:]
		case strings.HasPrefix(a, "--"):
			opts = append(opts, a)
			// getopt_long takes a long option by any unambiguous prefix
			// (timeout --sig KILL).
			if name := a[2:]; !strings.Contains(name, "=") && name != "" && slices.ContainsFunc(longWithValue, func(l string) bool { return strings.HasPrefix(l, name) }) && i+1 < len(args) {
				i++
				opts = append(opts, args[i])
			}
		case len(a) > 1 && a[0] == '-' && a != Dynamic:
			opts = append(opts, a)
			// The last letter of a cluster may take the next word.
			if last := a[len(a)-1]; strings.IndexByte(withValue, last) >= 0 && !hasValueInside(a, withValue) && i+1 < len(args) {
				i++
				opts = append(opts, args[i])
			}
		default:
			return opts, args[i:]
		}
	}
	return opts, nil
}

// hasValueInside reports whether a short-option cluster holds its value
// already (-n5): a letter taking a value before the end.
func hasValueInside(cluster, withValue string) bool {
	for i := 1; i < len(cluster)-1; i++ {
		if strings.IndexByte(withValue, cluster[i]) >= 0 {
			return true
		}
	}
	return false
}

// simple is a wrapper whose options come first and whose first operand
// is the command it runs.
func simple(withValue string, longWithValue ...string) wrapper {
	return func(r *reader, c Command, via []string, depth int) error {
		_, rest := splitOptions(c.Args, withValue, longWithValue...)
		return r.then(c, rest, c.Program, via, depth)
	}
}

// envLongWithValue are env's long options that take the next word as
// their value when not written --name=value.
var envLongWithValue = []string{"unset", "chdir", "split-string", "argv0"}

// readEnv reads env as GNU getopt_long reads its options: short ones
// cluster (-vS'CODE' is -v -S CODE), -u, -C, -a and -S take the rest of
// their word or the next one, a long option is taken by any unambiguous
// prefix (--sp=CODE), "-" is -i; then NAME=VALUE settings, then the
// command.
func readEnv(r *reader, c Command, via []string, depth int) error {
	args := c.Args
	split := func(i int, first string) error {
		return r.code(c, strings.Join(append([]string{first}, args[i+1:]...), " "), "env -S", via, depth)
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return r.then(c, args[i+1:], "env", via, depth)
		case a == "-":
		case strings.HasPrefix(a, "--") && a != Dynamic:
			name, value, hasValue := strings.Cut(a[2:], "=")
			long := ""
			for _, l := range envLongWithValue {
				if name != "" && strings.HasPrefix(l, name) {
					long = l
				}
			}
			if long == "" {
				continue
			}
			if !hasValue {
				if i+1 >= len(args) {
					return r.then(c, nil, "env", via, depth)
				}
				i++
				value = args[i]
			}
			if long == "split-string" {
				return split(i, value)
			}
		case len(a) > 1 && a[0] == '-' && a != Dynamic:
			for k := 1; k < len(a); k++ {
				if !strings.ContainsRune("uCaS", rune(a[k])) {
					continue
				}
				value := a[k+1:]
				if value == "" {
					if i+1 >= len(args) {
						return r.then(c, nil, "env", via, depth)
					}
					i++
					value = args[i]
				}
				if a[k] == 'S' {
					return split(i, value)
				}
				break
			}
		case strings.Contains(a, "=") && a != Dynamic:
			name, value, _ := strings.Cut(a, "=")
			c.Env = append(c.Env, name)
			if err := r.commandVar(name, value, via, depth); err != nil {
				return err
			}
		default:
			return r.then(c, args[i:], "env", via, depth)
		}
	}
	return r.then(c, nil, "env", via, depth)
}

func readSudo(r *reader, c Command, via []string, depth int) error {
	opts, rest := splitOptions(c.Args, "ugChpraTtUD", "user", "group", "close-from", "host", "prompt", "role", "type", "other-user", "chdir", "command-timeout")
	for len(rest) > 0 && strings.Contains(rest[0], "=") && rest[0] != Dynamic && !strings.HasPrefix(rest[0], "=") {
		name, value, _ := strings.Cut(rest[0], "=")
		c.Env = append(c.Env, name)
		// sudo GIT_SSH_COMMAND=CMD git fetch: CMD runs, as root.
		if err := r.commandVar(name, value, append(slices.Clip(via), "sudo"), depth); err != nil {
			return err
		}
		rest = rest[1:]
	}
	if len(rest) == 0 && (hasShort(opts, 's') || hasShort(opts, 'i') || slices.Contains(opts, "--shell") || slices.Contains(opts, "--login")) {
		c.Known, c.Reason = false, "sudo -s or -i runs a shell that reads its commands from its input"
	}
	if hasShort(opts, 'e') || slices.Contains(opts, "--edit") {
		c.normalize()
		r.out = append(r.out, c)
		return nil
	}
	return r.then(c, rest, "sudo", via, depth)
}

func readDoas(r *reader, c Command, via []string, depth int) error {
	opts, rest := splitOptions(c.Args, "uC")
	if len(rest) == 0 && hasShort(opts, 's') {
		c.Known, c.Reason = false, "doas -s runs a shell that reads its commands from its input"
	}
	return r.then(c, rest, "doas", via, depth)
}

func readSu(r *reader, c Command, via []string, depth int) error {
	return readSwitchUser(r, c, via, depth, false)
}

func readXargs(r *reader, c Command, via []string, depth int) error {
	_, rest := splitOptions(c.Args, "adEILnPs", "arg-file", "delimiter", "eof", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var")
	if len(rest) == 0 {
		rest = []string{"echo"}
	}
	n := len(r.out)
	if err := r.command(rest, c.Env, c.Writes, append(slices.Clip(via), "xargs"), depth); err != nil {
		return err
	}
	if n < len(r.out) {
		r.out[n].MoreArgs = true
	}
	return nil
}

func readTimeout(r *reader, c Command, via []string, depth int) error {
	_, rest := splitOptions(c.Args, "sk", "signal", "kill-after")
	if len(rest) > 0 {
		rest = rest[1:] // the duration
	}
	return r.then(c, rest, "timeout", via, depth)
}

func readCommand(r *reader, c Command, via []string, depth int) error {
	opts, rest := splitOptions(c.Args, "")
	if hasShort(opts, 'v') || hasShort(opts, 'V') {
		// command -v only looks a name up.
		c.normalize()
		r.out = append(r.out, c)
		return nil
	}
	return r.then(c, rest, "command", via, depth)
}

func readChroot(r *reader, c Command, via []string, depth int) error {
	_, rest := splitOptions(c.Args, "", "userspec", "groups")
	if len(rest) > 0 {
		rest = rest[1:] // the new root
	}
	if len(rest) == 0 {
		c.Known, c.Reason = false, "chroot without a command runs a shell that reads its commands from its input"
	}
	return r.then(c, rest, "chroot", via, depth)
}

func readBusybox(r *reader, c Command, via []string, depth int) error {
	if len(c.Args) > 0 && !strings.HasPrefix(c.Args[0], "-") {
		return r.command(c.Args, c.Env, c.Writes, append(slices.Clip(via), "busybox"), depth)
	}
	c.normalize()
	r.out = append(r.out, c)
	return nil
}

func readEval(r *reader, c Command, via []string, depth int) error {
	if slices.Contains(c.Args, Dynamic) {
		return r.code(c, Dynamic, "eval", via, depth)
	}
	return r.code(c, strings.Join(c.Args, " "), "eval", via, depth)
}

func readTrap(r *reader, c Command, via []string, depth int) error {
	_, rest := splitOptions(c.Args, "")
	if len(rest) < 2 || rest[0] == "-" {
		c.normalize()
		r.out = append(r.out, c)
		return nil
	}
	return r.code(c, rest[0], "trap", via, depth)
}

func readWatch(r *reader, c Command, via []string, depth int) error {
	_, rest := splitOptions(c.Args, "nq", "interval", "equexit")
	if len(rest) == 0 {
		c.normalize()
		r.out = append(r.out, c)
		return nil
	}
	if slices.Contains(rest, Dynamic) {
		return r.code(c, Dynamic, "watch", via, depth)
	}
	return r.code(c, strings.Join(rest, " "), "watch", via, depth)
}

// readShell reads sh, bash and their kin: with -c, the code string; with a
// script or its input, the shell itself, whose code charter does not see.
func readShell(r *reader, c Command, via []string, depth int) error {
	args := c.Args
	code := false
	i := 0
options:
	for ; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--" || a == "-":
			i++
			break options
		case a == "--rcfile" || a == "--init-file" || a == "-o" || a == "+o" || a == "-O" || a == "+O":
			i++
		case a == "-c" || a == "--command":
			code = true
		case strings.HasPrefix(a, "--"):
		case len(a) > 1 && (a[0] == '-' || a[0] == '+') && a != Dynamic:
			if strings.IndexByte(a[1:], 'c') >= 0 {
				code = true
			}
		default:
			break options
		}
	}
	operands := args[min(i, len(args)):]
	if !code && r.stdin != "" && (len(operands) == 0 || hasShort(args[:min(i, len(args))], 's')) {
		// bash <<'EOF' ... EOF: the shell reads the here-document's
		// commands.
		return r.code(c, r.stdin, c.Program+" <<", via, depth)
	}
	if code {
		if len(operands) == 0 {
			c.Known, c.Reason = false, c.Program+" -c without code"
			r.out = append(r.out, c)
			return nil
		}
		return r.code(c, operands[0], c.Program+" -c", via, depth)
	}
	c.normalize()
	r.out = append(r.out, c)
	return nil
}

// readFind reads find and the commands its -exec, -execdir, -ok and
// -okdir run.
func readFind(r *reader, c Command, via []string, depth int) error {
	c.normalize()
	r.out = append(r.out, c)
	args := c.Args
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-exec", "-execdir", "-ok", "-okdir":
			end := i + 1
			for end < len(args) && args[end] != ";" && args[end] != "+" {
				end++
			}
			if end > i+1 {
				n := len(r.out)
				if err := r.command(args[i+1:end], c.Env, nil, append(slices.Clip(via), "find "+args[i]), depth); err != nil {
					return err
				}
				for k := n; k < len(r.out); k++ {
					r.out[k].MoreArgs = true
				}
			}
			i = end
		}
	}
	return nil
}

// hasShort reports whether the options hold the short option letter
// (alone or in a cluster).
func hasShort(opts []string, letter byte) bool {
	for _, o := range opts {
		if len(o) > 1 && o[0] == '-' && o[1] != '-' && strings.IndexByte(o[1:], letter) >= 0 {
			return true
		}
	}
	return false
}
