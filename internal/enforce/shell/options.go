package shell

import (
	"slices"
	"strings"
)

// spec is how a program takes its options, as GNU getopt_long reads them:
// short options cluster (-rf), a short option's value may follow it or be
// the next word, long options may be abbreviated to a unique prefix and
// take a value as --name=value or, when required, the next word; "--" ends
// the options; and unless posix, options may follow operands (rm x -rf).
type spec struct {
	// short maps a letter to its long name ("" keeps the letter).
	short map[byte]string
	// shortValue are the letters that take a value.
	shortValue string
	// long maps each long name to how it takes a value: 0 none, 1
	// required, 2 optional (only --name=value).
	long  map[string]int
	posix bool
}

// parse splits args into options (normalized names), their values and
// operands.
func (s *spec) parse(args []string) (flags []string, values map[string]string, operands []string) {
	set := func(name, value string, hasValue bool) {
		flags = append(flags, name)
		if hasValue {
			if values == nil {
				values = map[string]string{}
			}
			values[name] = value
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return flags, values, append(operands, args[i+1:]...)
		case strings.HasPrefix(a, "--") && a != Dynamic:
			name, value, hasValue := strings.Cut(a[2:], "=")
			full, kind := s.longName(name)
			if full == "" {
				set("--"+name, value, hasValue)
				continue
			}
			if kind == 1 && !hasValue && i+1 < len(args) {
				i++
				value, hasValue = args[i], true
			}
			set(full, value, hasValue)
		case len(a) > 1 && a[0] == '-' && a != Dynamic:
			for k := 1; k < len(a); k++ {
				name := s.short[a[k]]
				if name == "" {
					name = string(a[k])
				}
				if strings.IndexByte(s.shortValue, a[k]) >= 0 {
					switch {
					case k+1 < len(a):
						set(name, a[k+1:], true)
					case i+1 < len(args):
						i++
						set(name, args[i], true)
					default:
						set(name, "", false)
					}
					break
				}
				set(name, "", false)
			}
		default:
			if s.posix {
				return flags, values, append(operands, args[i:]...)
			}
			operands = append(operands, a)
		}
	}
	return flags, values, operands
}

// longName resolves an abbreviated long option: the long name it is a
// unique prefix of (or equals), and how it takes a value.
func (s *spec) longName(name string) (string, int) {
	if kind, ok := s.long[name]; ok {
		return name, kind
	}
	found := ""
	for l := range s.long {
		if strings.HasPrefix(l, name) {
			if found != "" {
				return "", 0 // ambiguous
			}
			found = l
		}
	}
	return found, s.long[found]
}

var specs = map[string]*spec{
	"rm": {
		short: map[byte]string{'r': "recursive", 'R': "recursive", 'f': "force", 'i': "interactive", 'I': "interactive-once", 'd': "dir", 'v': "verbose"},
		long:  map[string]int{"recursive": 0, "force": 0, "interactive": 2, "dir": 0, "verbose": 0, "one-file-system": 0, "no-preserve-root": 0, "preserve-root": 2, "help": 0, "version": 0},
	},
	"truncate": {
		short: map[byte]string{'s': "size", 'r': "reference", 'c': "no-create", 'o': "io-blocks"}, shortValue: "sr",
		long: map[string]int{"size": 1, "reference": 1, "no-create": 0, "io-blocks": 0},
	},
	"shred": {
		short: map[byte]string{'f': "force", 'n': "iterations", 's': "size", 'u': "remove", 'v': "verbose", 'x': "exact", 'z': "zero"}, shortValue: "ns",
		long: map[string]int{"force": 0, "iterations": 1, "random-source": 1, "size": 1, "remove": 2, "verbose": 0, "exact": 0, "zero": 0},
	},
	"psql": {
		short: map[byte]string{'c': "command", 'd': "dbname", 'f': "file", 'h': "host", 'p': "port", 'U': "username", 'v': "variable"}, shortValue: "cdfhpUvoLPRTFz",
		long: map[string]int{"command": 1, "dbname": 1, "file": 1, "host": 1, "port": 1, "username": 1, "variable": 1, "set": 1},
	},
	"mysql": {
		short: map[byte]string{'e': "execute", 'D': "database", 'h': "host", 'P': "port", 'u': "user", 'p': "password"}, shortValue: "eDhPu",
		long: map[string]int{"execute": 1, "database": 1, "host": 1, "port": 1, "user": 1, "password": 2},
	},
	"sqlite3": {posix: true, long: map[string]int{"cmd": 1, "init": 1, "separator": 1, "newline": 1, "nullvalue": 1}},
	"git": {
		short: map[byte]string{'C': "C", 'c': "c", 'p': "paginate", 'P': "no-pager"}, shortValue: "Cc", posix: true,
		long: map[string]int{"git-dir": 1, "work-tree": 1, "namespace": 1, "exec-path": 2, "paginate": 0, "no-pager": 0, "bare": 0, "no-replace-objects": 0, "literal-pathspecs": 0, "config-env": 1, "super-prefix": 1, "list-cmds": 1},
	},
}

// gitSpecs are the options of the git subcommands charter judges.
var gitSpecs = map[string]*spec{
	"clean": {
		short: map[byte]string{'f': "force", 'n': "dry-run", 'i': "interactive", 'q': "quiet", 'e': "exclude"}, shortValue: "e",
		long: map[string]int{"force": 0, "dry-run": 0, "interactive": 0, "quiet": 0, "exclude": 1},
	},
	"reset": {
		short: map[byte]string{'q': "quiet", 'p': "patch"},
		long:  map[string]int{"hard": 0, "soft": 0, "mixed": 0, "merge": 0, "keep": 0, "quiet": 0, "patch": 0, "recurse-submodules": 2},
	},
	"push": {
		short: map[byte]string{'f': "force", 'd': "delete", 'n': "dry-run", 'u': "set-upstream", 'o': "push-option", 'q': "quiet", 'v': "verbose"}, shortValue: "o",
		long: map[string]int{"force": 0, "force-with-lease": 2, "force-if-includes": 0, "delete": 0, "dry-run": 0, "mirror": 0, "all": 0, "tags": 0, "prune": 0, "set-upstream": 0, "push-option": 1, "repo": 1, "quiet": 0, "verbose": 0, "atomic": 0, "no-verify": 0},
	},
	"branch": {
		short: map[byte]string{'d': "delete", 'D': "D", 'f': "force", 'm': "move", 'M': "M", 'c': "copy", 'C': "C", 'a': "all", 'r': "remotes", 'u': "set-upstream-to", 'v': "verbose"}, shortValue: "u",
		long: map[string]int{"delete": 0, "force": 0, "move": 0, "copy": 0, "all": 0, "remotes": 0, "set-upstream-to": 1, "verbose": 0, "list": 0},
	},
}

// normalize splits a command's arguments into flags, values and operands,
// by its program's spec when charter knows one.
func (c *Command) normalize() {
	if !c.Known {
		return
	}
	args := c.Args
	s := specs[c.Program]
	switch {
	case c.Program == "git":
		flags, values, operands := s.parse(args)
		if len(operands) == 0 {
			c.setOptions(flags, values, nil)
			return
		}
		c.Subcommand = operands[0]
		sub := gitSpecs[c.Subcommand]
		if sub == nil {
			sub = &spec{}
			flags, values, operands = rawOptions(operands[1:])
		} else {
			flags, values, operands = sub.parse(operands[1:])
		}
		c.setOptions(flags, values, operands)
	case c.Program == "find":
		// find's primaries look like options: -name, -delete, -exec.
		// The command an -exec runs is its own (readFind).
		var flags, operands []string
		for i := 0; i < len(args); i++ {
			a := args[i]
			switch {
			case a == "-exec" || a == "-execdir" || a == "-ok" || a == "-okdir":
				flags = append(flags, a[1:])
				for i+1 < len(args) && args[i+1] != ";" && args[i+1] != "+" {
					i++
				}
				i++
			case len(a) > 1 && a[0] == '-' && a != Dynamic:
				flags = append(flags, strings.TrimLeft(a, "-"))
			default:
				operands = append(operands, a)
			}
		}
		c.setOptions(flags, nil, operands)
	case c.Program == "dd":
		// dd's operands are key=value.
		var values map[string]string
		for _, a := range args {
			if k, v, ok := strings.Cut(a, "="); ok {
				if values == nil {
					values = map[string]string{}
				}
				values[k] = v
			}
		}
		c.setOptions(nil, values, args)
	case s != nil:
		c.setOptions(s.parse(args))
	default:
		c.setOptions(rawOptions(args))
	}
}

// rawOptions splits the arguments of a program charter has no spec for:
// every argument that starts with "-", as written, is a flag.
func rawOptions(args []string) (flags []string, values map[string]string, operands []string) {
	for i, a := range args {
		switch {
		case a == "--":
			return flags, nil, append(operands, args[i+1:]...)
		case len(a) > 1 && a[0] == '-' && a != Dynamic:
			flags = append(flags, a)
		default:
			operands = append(operands, a)
		}
	}
	return flags, nil, operands
}

func (c *Command) setOptions(flags []string, values map[string]string, operands []string) {
	slices.Sort(flags)
	c.Flags = slices.Compact(flags)
	c.Values = values
	c.Operands = operands
}

// Has reports whether the command has every one of the flags.
func (c *Command) Has(flags ...string) bool {
	for _, f := range flags {
		if !slices.Contains(c.Flags, f) {
			return false
		}
	}
	return true
}

// Inert reports whether the command is a shell builtin that runs nothing
// and changes no file: cd, echo, printf, test, true, set, ... A whitelist
// of programs need not name these.
func (c *Command) Inert() bool {
	if !c.Known || len(c.Via) > 0 && slices.ContainsFunc(c.Via, isPrivileged) {
		return false
	}
	switch c.Program {
	case "cd", "pwd", "echo", "printf", "true", "false", ":", "test", "[", "exit", "return",
		"set", "shift", "wait", "read", "export", "unset", "local", "declare", "typeset", "readonly",
		"pushd", "popd", "dirs", "umask", "type", "getopts", "break", "continue":
		return c.writesNothing()
	case "command":
		return c.writesNothing() && (c.Has("-v") || c.Has("-V"))
	}
	return false
}

// writesNothing reports whether the command's redirections write no file
// (/dev/null and the standard streams are none).
func (c *Command) writesNothing() bool {
	for _, w := range c.Writes {
		switch w {
		case "/dev/null", "/dev/stdout", "/dev/stderr":
		default:
			return false
		}
	}
	return true
}

// Privileged names the wrappers in Via that run the command as another
// user or in another root: sudo, doas, su -c, chroot, pkexec, run0,
// runuser, systemd-run (not --user).
func (c *Command) Privileged() []string {
	var out []string
	for _, v := range c.Via {
		if isPrivileged(v) {
			out = append(out, strings.Fields(v)[0])
		}
	}
	return out
}

func isPrivileged(via string) bool {
	switch strings.Fields(via)[0] {
	case "sudo", "doas", "su", "chroot", "pkexec", "run0", "runuser":
		return true
	case "systemd-run":
		return via == "systemd-run" // not --user
	}
	return false
}

// RunChanging returns the variables set for the command (Env) that change
// which program runs or what it loads, whatever its name says: PATH, the
// dynamic loader's LD_* and DYLD_*, the files and code a shell runs first
// (BASH_ENV, ENV, BASH_FUNC_*, PROMPT_COMMAND, PS4, SHELLOPTS,
// BASHOPTS), GCONV_PATH, git's GIT_CONFIG_* and GIT_EXEC_PATH, SHELL
// and TAR_OPTIONS. A whitelist of programs cannot vouch for such a
// command.
func (c *Command) RunChanging() []string {
	var out []string
	for _, v := range c.Env {
		if runChanging(v) {
			out = append(out, v)
		}
	}
	return out
}

func runChanging(name string) bool {
	switch name {
	case "PATH", "BASH_ENV", "ENV", "PROMPT_COMMAND", "PS4", "SHELLOPTS", "BASHOPTS", "GCONV_PATH",
		// git's configuration and programs: aliases and commands it runs.
		"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CONFIG", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_EXEC_PATH", "GIT_TEMPLATE_DIR",
		// The shell flock -c and script -c run their code with; the
		// options tar reads (--to-command=CMD) before its own.
		"SHELL", "TAR_OPTIONS",
		// Where git finds its repository's configuration, and where git
		// (and most programs) find the user's: ~/.gitconfig, ~/.npmrc.
		"GIT_DIR", "GIT_COMMON_DIR", "HOME", "XDG_CONFIG_HOME":
		return true
	}
	if strings.HasPrefix(name, "GIT_CONFIG_KEY_") || strings.HasPrefix(name, "GIT_CONFIG_VALUE_") {
		return true
	}
	return strings.HasPrefix(name, "LD_") || strings.HasPrefix(name, "DYLD_") || strings.HasPrefix(name, "BASH_FUNC_")
}
