package shell

import (
	"regexp"
	"strings"
	"sync"
)

// Everyday tools that run a command they are given: GNU sed (the e
// command, the s///e flag), awk (system(), pipes), tar, sort, rsync and
// ssh through options. A whitelist that names sed or tar meant text and
// archives, not a shell: what these options run is read as code, via
// "PROGRAM OPTION", and a script charter does not see into, or whose
// commands it does not parse, makes an unknown command.

// readsCode reads the code c's options or script make it run. It lists
// nothing when c runs none.
func (r *reader) readsCode(c Command, via []string, depth int) error {
	switch c.Program {
	case "sed", "gsed":
		return r.sedCode(c)
	case "awk", "gawk", "mawk", "nawk":
		return r.awkCode(c)
	case "tar", "gtar", "bsdtar":
		for _, o := range []struct{ long, short, how string }{
			{"to-command", "", "tar --to-command"},
			{"use-compress-program", "I", "tar --use-compress-program"},
			{"info-script", "F", "tar --info-script"},
			{"new-volume-script", "", "tar --info-script"},
			{"rsh-command", "", "tar --rsh-command"},
		} {
			for _, v := range longOrShortValues(c.Args, o.long, o.short) {
				if err := r.code(c, v, o.how, via, depth); err != nil {
					return err
				}
			}
		}
		for _, v := range longOrShortValues(c.Args, "checkpoint-action", "") {
			if code, ok := strings.CutPrefix(v, "exec="); ok {
				if err := r.code(c, code, "tar --checkpoint-action", via, depth); err != nil {
					return err
				}
			}
		}
	case "sort":
		for _, v := range longOrShortValues(c.Args, "compress-program", "") {
			if err := r.code(c, v, "sort --compress-program", via, depth); err != nil {
				return err
			}
		}
	case "rsync":
		for _, v := range longOrShortValues(c.Args, "rsh", "e") {
			if err := r.code(c, v, "rsync --rsh", via, depth); err != nil {
				return err
			}
		}
	case "ssh", "scp", "sftp":
		for _, v := range longOrShortValues(c.Args, "", "o") {
			key, value, ok := strings.Cut(v, "=")
			if !ok {
				key, value, _ = strings.Cut(strings.TrimSpace(v), " ")
			}
			switch k := strings.ToLower(strings.TrimSpace(key)); k {
			case "proxycommand", "localcommand", "knownhostscommand":
				if err := r.code(c, strings.TrimSpace(value), c.Program+" "+map[string]string{"proxycommand": "ProxyCommand", "localcommand": "LocalCommand", "knownhostscommand": "KnownHostsCommand"}[k], via, depth); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// longOrShortValues returns the values of the option --long (--long=V,
// --long V) and -short (-sV, -s V) among args, up to "--".
func longOrShortValues(args []string, long, short string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		switch {
		case long != "" && strings.HasPrefix(a, "--"+long+"="):
			out = append(out, a[len(long)+3:])
		case long != "" && a == "--"+long:
			if i+1 < len(args) {
				i++
				out = append(out, args[i])
			}
		case short != "" && len(a) > 1 && a[0] == '-' && a[1] != '-' && a != Dynamic:
			if j := strings.Index(a, short); j > 0 {
				if v := a[j+len(short):]; v != "" {
					out = append(out, v)
				} else if i+1 < len(args) {
					i++
					out = append(out, args[i])
				}
			}
		}
	}
	return out
}

// sedCode lists an unknown command when a sed script can run a command.
func (r *reader) sedCode(c Command) error {
	args := c.Args
	var scripts []string
	explicit := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--sandbox":
			return nil // e, r and w are refused
		case a == "--":
			i = len(args)
		case a == "-e" || a == "--expression":
			explicit = true
			if i+1 < len(args) {
				i++
				scripts = append(scripts, args[i])
			}
		case strings.HasPrefix(a, "--expression="):
			explicit = true
			scripts = append(scripts, strings.TrimPrefix(a, "--expression="))
		case a == "-f" || a == "--file" || strings.HasPrefix(a, "--file="):
			return r.unknown(c, "sed -f runs a script file charter does not read, and a sed script can run commands (e)")
		case a == "-l" || a == "--line-length":
			i++
		case len(a) > 1 && a[0] == '-' && a != Dynamic:
			if j := strings.IndexAny(a[1:], "ef"); j >= 0 && a[1] != '-' {
				if a[1+j] == 'f' {
					return r.unknown(c, "sed -f runs a script file charter does not read, and a sed script can run commands (e)")
				}
				explicit = true
				if v := a[2+j:]; v != "" {
					scripts = append(scripts, v)
				} else if i+1 < len(args) {
					i++
					scripts = append(scripts, args[i])
				}
			}
		default:
			if !explicit {
				scripts = append(scripts, a)
				explicit = true
			}
		}
	}
	for _, s := range scripts {
		if s == Dynamic {
			return r.unknown(c, "sed runs a script known only when the command runs, and a sed script can run commands (e)")
		}
		if sedRuns(s) {
			return r.unknown(c, "sed's e command or s///e flag runs a command that charter does not read")
		}
	}
	return nil
}

var sedExec = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)(^|[;{}!/0-9$,~])\s*e(\s|;|}|$)`)
})

// sedRuns reports whether a sed script may run a command: an e command,
// or an s command with the e flag (read conservatively: a false yes is
// an unknown command, a false no a command run unseen).
func sedRuns(script string) bool {
	if sedExec().MatchString(script) {
		return true
	}
	for i := 0; i+1 < len(script); i++ {
		if script[i] != 's' {
			continue
		}
		d := script[i+1]
		if d == '\\' || d == '\n' || d == ' ' || d >= 'a' && d <= 'z' || d >= 'A' && d <= 'Z' || d >= '0' && d <= '9' {
			continue
		}
		j, n := i+2, 0
		for ; j < len(script) && n < 2; j++ {
			switch script[j] {
			case '\\':
				j++
			case d:
				n++
			}
		}
		if n < 2 {
			continue
		}
		for ; j < len(script); j++ {
			f := script[j]
			if f == 'e' {
				return true
			}
			if !(f >= 'a' && f <= 'z' || f >= 'A' && f <= 'Z' || f >= '0' && f <= '9') {
				break
			}
		}
	}
	return false
}

var awkRuns = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`system\s*\(|\|\s*getline|\|&|\|\s*"|\|\s*[A-Za-z_][A-Za-z_0-9]*\s*($|[;}\n)])`)
})

// awkCode lists an unknown command when an awk program can run one.
func (r *reader) awkCode(c Command) error {
	args := c.Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-f" || a == "--file" || strings.HasPrefix(a, "--file=") || a == "-i" || a == "--include" || a == "-l" || a == "--load" || strings.HasPrefix(a, "-f") && len(a) > 2:
			return r.unknown(c, "awk -f runs a program file charter does not read, and an awk program can run commands (system, pipes)")
		case a == "-F" || a == "-v" || a == "--field-separator" || a == "--assign":
			i++
		case a == "-e" || a == "--source":
			if i+1 < len(args) {
				i++
				if why := awkProgram(args[i]); why != "" {
					return r.unknown(c, why)
				}
			}
		case a == "--":
			if i+1 < len(args) {
				if why := awkProgram(args[i+1]); why != "" {
					return r.unknown(c, why)
				}
			}
			return nil
		case strings.HasPrefix(a, "-") && a != Dynamic:
		default:
			if why := awkProgram(a); why != "" {
				return r.unknown(c, why)
			}
			return nil
		}
	}
	return nil
}

func awkProgram(p string) string {
	if p == Dynamic {
		return "awk runs a program known only when the command runs, and an awk program can run commands (system, pipes)"
	}
	if awkRuns().MatchString(p) {
		return "the awk program runs a command (system, a pipe) that charter does not read"
	}
	return ""
}
