package shell

import (
	"slices"
	"strings"
)

// More programs that run the command after their options (or a code
// string): locking, CPU and memory placement, tracing, another user or
// namespace, a transient unit, a recorded terminal.

// readSystemdRun reads systemd-run, which runs the command in a unit of
// the system manager, as root unless told another user (run0 is this),
// or with --user in the user's own manager.
func readSystemdRun(r *reader, c Command, via []string, depth int) error {
	opts, rest := splitOptions(c.Args, "puEMH", "property", "unit", "setenv", "description", "slice", "machine", "host", "working-directory", "nice", "uid", "gid", "on-active", "on-boot", "on-startup", "on-unit-active", "on-unit-inactive", "on-calendar", "on-timezone-change", "on-clock-change", "timer-property", "path-property", "socket-property", "service-type", "expand-environment")
	how := "systemd-run"
	if slices.Contains(opts, "--user") {
		how = "systemd-run --user"
	}
	return r.then(c, rest, how, via, depth)
}

// readStrace reads strace: its -o FILE pipes the trace to a command when
// FILE starts with | or !.
func readStrace(r *reader, c Command, via []string, depth int) error {
	opts, rest := splitOptions(c.Args, "eopsuabEIOPSXU", "output", "expr", "signal", "trace", "attach", "user", "string-limit", "env", "trace-path")
	for _, v := range longOrShortValues(opts, "output", "o") {
		code, pipe := strings.CutPrefix(v, "|")
		if !pipe {
			code, pipe = strings.CutPrefix(v, "!")
		}
		if v == Dynamic || strings.HasPrefix(v, Dynamic) {
			code, pipe = Dynamic, true
		}
		if pipe {
			if err := r.code(c, code, "strace -o", via, depth); err != nil {
				return err
			}
		}
	}
	return r.then(c, rest, "strace", via, depth)
}

func readFlock(r *reader, c Command, via []string, depth int) error {
	args := c.Args
	var operands []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case len(operands) > 0 && a != "-c" && a != "--command" && !strings.HasPrefix(a, "--command="):
			// flock FILE CMD ARGS: the rest is the command.
			return r.then(c, args[i:], "flock", via, depth)
		case a == "-c" || a == "--command":
			if i+1 < len(args) {
				return r.code(c, args[i+1], "flock -c", via, depth)
			}
		case strings.HasPrefix(a, "--command="):
			return r.code(c, strings.TrimPrefix(a, "--command="), "flock -c", via, depth)
		case a == "-w" || a == "-E" || a == "--timeout" || a == "--wait" || a == "--conflict-exit-code":
			i++
		case a == "--":
			// flock -- FILE [-c CODE | CMD ARGS]
			if i+2 < len(args) {
				operands = append(operands, args[i+1])
				i++
				continue
			}
			i = len(args)
		case strings.HasPrefix(a, "-") && a != Dynamic:
		default:
			operands = append(operands, a)
		}
	}
	return r.then(c, nil, "flock", via, depth)
}

// afterOperand is a wrapper whose options come first, then an operand
// (taskset's mask, chrt's priority), then the command; pidMode is the
// option (-p) under which it runs no command.
func afterOperand(withValue string, longWithValue ...string) wrapper {
	return func(r *reader, c Command, via []string, depth int) error {
		opts, rest := splitOptions(c.Args, withValue, longWithValue...)
		if hasShort(opts, 'p') || slices.Contains(opts, "--pid") || len(rest) == 0 {
			return r.then(c, nil, c.Program, via, depth)
		}
		return r.then(c, rest[1:], c.Program, via, depth)
	}
}

// asUser is a wrapper that runs the command as another user, and a shell
// reading its input without one.
func asUser(withValue string, longWithValue ...string) wrapper {
	return func(r *reader, c Command, via []string, depth int) error {
		_, rest := splitOptions(c.Args, withValue, longWithValue...)
		if len(rest) == 0 {
			// Program stays: it is known who runs the shell (as sudo -s).
			c.Known, c.Reason = false, c.Program+" without a command runs a shell that reads its commands from its input"
			r.out = append(r.out, c)
			return nil
		}
		return r.then(c, rest, c.Program, via, depth)
	}
}

func readRunuser(r *reader, c Command, via []string, depth int) error {
	return readSwitchUser(r, c, via, depth, true)
}

// readSwitchUser reads su and runuser (util-linux; their options alike):
// -c CODE runs CODE in the shell -s names; runuser -u USER runs the
// command after it; without either, a shell that reads its input.
func readSwitchUser(r *reader, c Command, via []string, depth int, userForm bool) error {
	args := c.Args
	user := false
	shell := shellOption(args)
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-c" || a == "--command":
			if i+1 < len(args) {
				return r.shellCode(c, shell, args[i+1], c.Program+" -c", via, depth)
			}
		case strings.HasPrefix(a, "--command="):
			return r.shellCode(c, shell, strings.TrimPrefix(a, "--command="), c.Program+" -c", via, depth)
		case userForm && (a == "-u" || a == "--user"):
			user = true
			i++
		case a == "-s" || a == "--shell":
			i++
		case a == "-g" || a == "-G" || a == "-w" || a == "--group" || a == "--supp-group" || a == "--whitelist-environment":
			i++
		case a == "--":
			if user {
				return r.then(c, args[i+1:], c.Program, via, depth)
			}
		case strings.HasPrefix(a, "-") && a != Dynamic:
		default:
			if user {
				return r.then(c, args[i:], c.Program, via, depth)
			}
		}
	}
	c.Known, c.Reason = false, c.Program+" without a command runs a shell that reads its commands from its input"
	r.out = append(r.out, c)
	return nil
}

// shellOption returns the shell su or runuser -s names, wherever it is
// among the options (su -c ls -s /tmp/x), or "".
func shellOption(args []string) string {
	shell := ""
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-c" || a == "--command":
			i++ // its code
		case a == "-s" || a == "--shell":
			if i+1 < len(args) {
				i++
				shell = args[i]
			}
		case strings.HasPrefix(a, "--shell="):
			shell = strings.TrimPrefix(a, "--shell=")
		}
	}
	return shell
}

// shellCode reads code that su or runuser -c runs with the shell -s
// names (shell: "" for the user's own): the shell runs it, so the shell
// is the program (su -s /tmp/x -c ls runs /tmp/x).
func (r *reader) shellCode(c Command, shell, code, how string, via []string, depth int) error {
	if shell == "" {
		return r.code(c, code, how, via, depth)
	}
	return r.command([]string{shell, "-c", code}, c.Env, c.Writes, append(slices.Clip(via), how), depth)
}

func readScript(r *reader, c Command, via []string, depth int) error {
	args := c.Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--command":
			if i+1 < len(args) {
				return r.code(c, args[i+1], "script -c", via, depth)
			}
		case strings.HasPrefix(a, "--command="):
			return r.code(c, strings.TrimPrefix(a, "--command="), "script -c", via, depth)
		case len(a) > 1 && a[0] == '-' && a[1] != '-' && a != Dynamic:
			if j := strings.IndexByte(a, 'c'); j > 0 {
				if j+1 < len(a) {
					return r.code(c, a[j+1:], "script -c", via, depth)
				}
				if i+1 < len(args) {
					return r.code(c, args[i+1], "script -c", via, depth)
				}
			}
			if strings.ContainsAny(a[len(a)-1:], "EIOTBmo") {
				i++
			}
		}
	}
	return r.then(c, nil, "script", via, depth)
}

// readSg reads sg GROUP [-c] COMMAND, which runs the command with sh -c.
func readSg(r *reader, c Command, via []string, depth int) error {
	args := c.Args
	if len(args) > 0 && args[0] == "-" {
		args = args[1:]
	}
	if len(args) < 2 {
		return r.unknown(c, "sg without a command runs a shell that reads its commands from its input")
	}
	rest := args[1:]
	if rest[0] == "-c" {
		rest = rest[1:]
	}
	if len(rest) == 0 || slices.Contains(rest, Dynamic) {
		return r.code(c, Dynamic, "sg -c", via, depth)
	}
	return r.code(c, strings.Join(rest, " "), "sg -c", via, depth)
}
