package shell

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Everyday tools that run a command they are given: GNU sed (the e
// command, the s///e flag), awk (system(), pipes), tar, sort, rsync and
// ssh through options. A whitelist that names sed or tar meant text and
// archives, not a shell: what these options run is read as code, via
// "PROGRAM OPTION", and a script charter does not see into, or whose
// commands it does not parse, makes an unknown command.

// codeReaders are the programs readsCode looks into: they run a command
// or code an option of theirs gives. RunsOthers lists them; keep the two
// alike (TestRunsOthers).
var codeReaders = []string{"sed", "gsed", "awk", "gawk", "mawk", "nawk", "tar", "gtar", "bsdtar", "sort", "rsync", "ssh", "scp", "sftp"}

// RunsOthers reports whether the reader looks into a program's arguments
// for another command or code it runs: a wrapper (env, sudo, xargs,
// timeout, a shell, ...), git, find, or a program whose options run a
// command (sed's e, awk's system, tar --to-command, ssh's ProxyCommand,
// ...). A runtime that admits a command line by its first word alone
// would let what those run through unread.
func RunsOthers(program string) bool {
	p := programName(program)
	if _, ok := wrappers[p]; ok {
		return true
	}
	return slices.Contains(codeReaders, p)
}

// readsCode reads the code c's options or script make it run. It lists
// nothing when c runs none.
func (r *reader) readsCode(c Command, via []string, depth int) error {
	switch c.Program {
	case "sed", "gsed":
		return r.sedCode(c)
	case "awk", "gawk", "mawk", "nawk":
		return r.awkCode(c)
	case "tar", "gtar", "bsdtar":
		args := tarOldStyle(c.Args)
		for _, o := range []struct{ long, short, how string }{
			{"to-command", "", "tar --to-command"},
			{"use-compress-program", "I", "tar --use-compress-program"},
			{"info-script", "F", "tar --info-script"},
			{"new-volume-script", "", "tar --info-script"},
			{"rsh-command", "", "tar --rsh-command"},
		} {
			for _, v := range longOrShortValues(args, o.long, o.short) {
				if err := r.code(c, v, o.how, via, depth); err != nil {
					return err
				}
			}
		}
		for _, v := range longOrShortValues(args, "checkpoint-action", "") {
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
		opts := sshOptions(c.Program, c.Args)
		for _, f := range opts['F'] {
			if f != "/dev/null" && f != "none" {
				// ssh runs what the file says (ProxyCommand, Match exec),
				// -G too.
				return r.unknown(c, c.Program+" -F FILE reads its configuration (ProxyCommand, LocalCommand, Match exec) from FILE, which charter does not read")
			}
		}
		// scp -S PROGRAM, sftp -S PROGRAM: the program that connects.
		if c.Program != "ssh" {
			for _, v := range opts['S'] {
				if err := r.code(c, v, c.Program+" -S", via, depth); err != nil {
					return err
				}
			}
		}
		for _, v := range opts['o'] {
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

// sshValueLetters are, per program, OpenSSH's options that take a value.
var sshValueLetters = map[string]string{"ssh": "BbcDEeFIiJLlmOoPpQRSWw", "scp": "cDFiJlMoPSX", "sftp": "BbcDFiJloPRSsX"}

// sshOptions returns the values of ssh's, scp's or sftp's options, by
// letter, as OpenSSH's getopt reads them: a letter that takes a value
// takes the rest of its word (-Fcfg, -vF cfg) or the next word. ssh
// reads options again after the host (ssh host -F cfg), up to the
// command; scp and sftp read them anywhere before "--" (glibc's getopt
// permutes).
func sshOptions(program string, args []string) map[byte][]string {
	withValue := sshValueLetters[program]
	out := map[byte][]string{}
	host := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if len(a) < 2 || a[0] != '-' || a == Dynamic {
			if program == "ssh" {
				if host {
					break // the command
				}
				host = true
			}
			continue
		}
		for k := 1; k < len(a); k++ {
			if strings.IndexByte(withValue, a[k]) < 0 {
				continue
			}
			v := a[k+1:]
			if v == "" && i+1 < len(args) {
				i++
				v = args[i]
			}
			out[a[k]] = append(out[a[k]], v)
			break
		}
	}
	return out
}

// tarOldStyle rewrites tar's old-style first word (tar xIf PROG a.tar:
// letters without a dash, each that takes a value taking the next word in
// turn) as dashed options, for longOrShortValues.
func tarOldStyle(args []string) []string {
	if len(args) == 0 || args[0] == Dynamic || strings.HasPrefix(args[0], "-") {
		return args
	}
	for _, l := range args[0] {
		if !(l >= 'a' && l <= 'z' || l >= 'A' && l <= 'Z') {
			return args
		}
	}
	var out []string
	next := 1
	for _, l := range args[0] {
		out = append(out, "-"+string(l))
		if strings.ContainsRune("bCfFgHIKLNTVX", l) && next < len(args) {
			out = append(out, args[next])
			next++
		}
	}
	return append(out, args[next:]...)
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
		case long != "" && strings.HasPrefix(a, "--"):
			// getopt_long takes any unambiguous prefix (--to-com=CMD).
			if v, hasValue, ok := longOption(a, long); ok {
				if hasValue {
					out = append(out, v)
				} else if i+1 < len(args) {
					i++
					out = append(out, args[i])
				}
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

// longOption reports whether the argument a (--NAME or --NAME=VALUE)
// is the long option long, given whole or by a prefix, as getopt_long
// and git's parse-options take it; value is what follows "=". A prefix
// two options share is refused by the program, so reading it as long
// is only more careful.
func longOption(a, long string) (value string, hasValue, ok bool) {
	rest, isLong := strings.CutPrefix(a, "--")
	if !isLong || a == Dynamic {
		return "", false, false
	}
	name, value, hasValue := strings.Cut(rest, "=")
	if name == "" || !strings.HasPrefix(long, name) {
		return "", false, false
	}
	return value, hasValue, true
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
		case a == "-e":
			explicit = true
			if i+1 < len(args) {
				i++
				scripts = append(scripts, args[i])
			}
		case strings.HasPrefix(a, "--"):
			if v, hasValue, ok := longOption(a, "expression"); ok {
				explicit = true
				if hasValue {
					scripts = append(scripts, v)
				} else if i+1 < len(args) {
					i++
					scripts = append(scripts, args[i])
				}
			} else if _, _, ok := longOption(a, "file"); ok {
				return r.unknown(c, "sed -f runs a script file charter does not read, and a sed script can run commands (e)")
			} else if _, hasValue, ok := longOption(a, "line-length"); ok && !hasValue {
				i++
			}
		case a == "-f":
			return r.unknown(c, "sed -f runs a script file charter does not read, and a sed script can run commands (e)")
		case a == "-l":
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

// sedExec matches an e command: after the start of a line or anything
// but a letter or blank (;, {, !, an address: 1, $, /re/, \%re%), or after
// a regex address's I or M flag.
var sedExec = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)(^|[^A-Za-z\s\\]|[IM])\s*e(\s|;|}|$)`)
})

// sedRuns reports whether a sed script may run a command: an e command,
// or an s command with the e flag (read conservatively: a false yes is
// an unknown command, a false no a command run unseen).
func sedRuns(script string) bool {
	if sedExec().MatchString(script) {
		return true
	}
	// An address \cREc may close on a letter (\xREx e): each letter that
	// follows a backslash, once (a script of many \n costs one pattern).
	var letters []byte
	for i := 0; i+1 < len(script); i++ {
		if script[i] == '\\' && isLetter(script[i+1]) && !slices.Contains(letters, script[i+1]) {
			letters = append(letters, script[i+1])
		}
	}
	if len(letters) > 0 && regexp.MustCompile(`(?m)[`+string(letters)+`]\s*e(\s|;|}|$)`).MatchString(script) {
		return true
	}
	for i := 0; i+1 < len(script); i++ {
		if script[i] != 's' {
			continue
		}
		d := script[i+1]
		if d == '\\' || d == '\n' {
			continue
		}
		// Any other character delimits (sxaxbxe, s a b e): one that could
		// be a word's is taken where the s is no word's end (class/).
		if (d == ' ' || isLetter(d) || d >= '0' && d <= '9') && i > 0 && isLetter(script[i-1]) {
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

// awkRuns matches what in an awk program may run a command: system(),
// a pipe to or from a command (print | EXPR: a string, a variable, a
// field, a parenthesised or concatenated expression, an element; CMD |
// getline; |&), and gawk's @ (@include, @load, an indirect call @f(),
// which may name system). A | in a regex before / or another operator
// (/a|b/) is not one; read conservatively, /a|b c/ is.
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

var awkRuns = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`system\s*\(|\|\s*getline|\|&|\|\s*["($]|\|\s*[A-Za-z_][A-Za-z_0-9]*\s*($|[;}\n)"\[(]|\s+[A-Za-z_"$(])|(^|[^A-Za-z0-9_.\-])@\s*[A-Za-z_]`)
})

// awkCode lists an unknown command when an awk program can run one.
func (r *reader) awkCode(c Command) error {
	const fromFile = "awk -f runs a program file charter does not read, and an awk program can run commands (system, pipes)"
	args := c.Args
	explicit := false // -e or --source gave the program
	for i := 0; i < len(args); i++ {
		a := args[i]
		// value is the option's value: the rest of the word, or the next.
		value := func(rest string) string {
			if rest == "" && i+1 < len(args) {
				i++
				rest = args[i]
			}
			return rest
		}
		switch {
		case a == "--":
			if !explicit && i+1 < len(args) {
				if why := awkProgram(args[i+1]); why != "" {
					return r.unknown(c, why)
				}
			}
			return nil
		case strings.HasPrefix(a, "--") && a != Dynamic:
			// gawk's long options, by any unambiguous prefix.
			name, v, hasValue := strings.Cut(a[2:], "=")
			switch {
			case awkFileOption(name):
				return r.unknown(c, fromFile)
			case strings.HasPrefix("source", name):
				explicit = true
				if !hasValue {
					v = value("")
				}
				if why := awkProgram(v); why != "" {
					return r.unknown(c, why)
				}
			case !hasValue && (strings.HasPrefix("field-separator", name) || strings.HasPrefix("assign", name)):
				i++
			}
		case len(a) > 1 && a[0] == '-' && a != Dynamic:
			// Clustered short options; the first that takes a value ends
			// the word.
		letters:
			for j := 1; j < len(a); j++ {
				switch a[j] {
				case 'f', 'E', 'i', 'l':
					return r.unknown(c, fromFile)
				case 'e':
					explicit = true
					if why := awkProgram(value(a[j+1:])); why != "" {
						return r.unknown(c, why)
					}
					break letters
				case 'W':
					// -W OPTION: gawk's long options; mawk's -W exec FILE.
					name, v, hasValue := strings.Cut(value(a[j+1:]), "=")
					switch {
					case name == Dynamic || awkFileOption(name):
						return r.unknown(c, fromFile)
					case strings.HasPrefix("source", name):
						explicit = true
						if !hasValue {
							v = Dynamic
						}
						if why := awkProgram(v); why != "" {
							return r.unknown(c, why)
						}
					}
					break letters
				case 'F', 'v', 'Z':
					value(a[j+1:])
					break letters
				case 'd', 'D', 'L', 'o', 'p':
					break letters // an optional value, in the word
				}
			}
		default:
			if !explicit {
				if why := awkProgram(a); why != "" {
					return r.unknown(c, why)
				}
			}
			return nil
		}
	}
	return nil
}

// awkFileOption reports whether name (a long option as written, maybe a
// prefix) is one that reads a program or extension from a file: gawk's
// --file, --exec, --include, --load, mawk's -W exec.
func awkFileOption(name string) bool {
	if name == "" {
		return false
	}
	for _, o := range []string{"file", "exec", "include", "load"} {
		if strings.HasPrefix(o, name) {
			return true
		}
	}
	return false
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
