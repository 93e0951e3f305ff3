package shell

import (
	"path"
	"slices"
	"strings"
)

// changes returns the files the command writes, moves, links, makes
// executable or deletes, as far as its words say: its output
// redirections, and the files of the programs charter knows to change
// them (tee, cp, mv, ln, install, rsync, scp, rm, unlink, shred,
// truncate, chmod, sed -i, perl -i, patch, ed, dd of=, curl -o, wget -O,
// the folder tar -C and unzip -d extract into, git config --file, git
// checkout, restore, rm and mv of paths, and PowerShell's Set-Content
// and its kin). A relative name is joined to dir, the folder an earlier cd
// of the command line moved to ("" for the folder the line starts in;
// Dynamic-prefixed when that is known only when it runs). A file named
// only when the command runs is Dynamic.
func changes(c *Command, dir string) []string {
	var out []string
	add := func(files ...string) {
		for _, f := range files {
			f = resolve(dir, f)
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	add(c.Writes...)
	if !c.Known {
		return out
	}
	ops := c.Operands
	prog := strings.ToLower(c.Program)
	switch {
	case slices.Contains([]string{"tee", "rm", "unlink", "shred", "truncate"}, prog):
		add(ops...)
	case slices.Contains([]string{"cp", "install", "mv", "ln"}, prog):
		// The destination, a folder's file of each source's name, and for
		// mv and ln every operand (mv takes the source away; ln SRC
		// makes ./SRC's base name).
		target, hasTarget := c.optionValue("t", "target-directory")
		if !hasTarget && len(ops) > 0 {
			target, ops = ops[len(ops)-1], ops[:len(ops)-1]
		}
		if target != "" {
			add(target)
			for _, s := range ops {
				if s == Dynamic || target == Dynamic {
					add(Dynamic)
				} else {
					add(path.Join(target, path.Base(s)))
				}
			}
		}
		if prog == "mv" || prog == "ln" {
			add(ops...)
			for _, s := range ops {
				if s != Dynamic {
					add(path.Base(s))
				}
			}
		}
	case prog == "rsync" || prog == "scp":
		// The destination, and a source's name in it.
		if len(ops) > 1 {
			target := ops[len(ops)-1]
			add(target)
			for _, s := range ops[:len(ops)-1] {
				// SRC/ copies SRC's files, SRC the folder itself.
				if s != Dynamic && target != Dynamic && !strings.HasSuffix(s, "/") {
					add(path.Join(target, path.Base(s)))
				}
			}
		}
	case slices.Contains([]string{"patch", "ed", "ex", "vi", "vim", "nvim"}, prog):
		add(ops...)
	case prog == "perl" || prog == "ruby":
		// -i edits the files in place; the script is -e's value.
		if slices.ContainsFunc(c.Flags, func(f string) bool { return !strings.HasPrefix(f, "--") && strings.Contains(f, "i") }) {
			add(ops...)
		}
	case prog == "tar" || prog == "gtar" || prog == "bsdtar":
		args := tarOldStyle(c.Args)
		if tarWritesDirectory(args) {
			for _, v := range longOrShortValues(args, "directory", "C") {
				add(v)
			}
		}
		if tarWritesArchive(args) {
			for _, v := range longOrShortValues(args, "file", "f") {
				if v != "-" { // standard output
					add(v)
				}
			}
		}
	case prog == "unzip":
		if v, ok := c.optionValue("d", ""); ok {
			add(v)
		}
	case prog == "git":
		_, sub, rest, _ := gitGlobals(c.Args)
		switch sub {
		case "config":
			if _, _, set := gitConfigSet(rest); set {
				for i, a := range rest {
					switch {
					case (a == "-f" || a == "--file") && i+1 < len(rest):
						add(rest[i+1])
					case strings.HasPrefix(a, "--file="):
						add(strings.TrimPrefix(a, "--file="))
					}
				}
			}
		case "checkout", "restore", "rm", "mv":
			// The paths they write or delete from the index or a commit.
			add(c.Operands...)
		case "clone":
			// The folder it makes: DIR, or the repository's name (an
			// option's value may be among the operands: each counts).
			for _, op := range c.Operands {
				add(cloneDir(op))
			}
			if n := len(c.Operands); n > 1 {
				add(c.Operands[n-1])
			}
		case "worktree", "submodule":
			// worktree add PATH [BRANCH] checks a branch out in PATH;
			// submodule add URL [PATH] clones into PATH or URL's name
			// (an option's value may be among the operands: each counts).
			if ops := c.Operands; len(ops) > 1 && ops[0] == "add" {
				for _, op := range ops[1:] {
					add(op)
					if sub == "submodule" {
						add(cloneDir(op))
					}
				}
			}
		}
	case slices.Contains([]string{"chmod", "chown", "chgrp"}, prog):
		if len(ops) > 1 {
			add(ops[1:]...)
		}
	case prog == "sed" || prog == "gsed":
		if c.inPlace() {
			add(c.sedFiles()...)
		}
	case prog == "dd":
		if of, ok := c.Values["of"]; ok {
			add(of)
		}
	case prog == "curl":
		if v, ok := c.optionValue("o", "output"); ok {
			add(v)
		}
	case prog == "wget":
		if v, ok := c.optionValue("O", "output-document"); ok {
			add(v)
		}
	case psPathCmdlets(prog):
		// PowerShell: the paths are its operands and the values of
		// -Path, -LiteralPath, -Destination, -FilePath, -NewName; and
		// the file each makes: New-Item's -Name in each -Path, a file of
		// the source's name in Copy-Item's and Move-Item's destination
		// folder, Rename-Item's new name beside the file it renames.
		var paths, sources, positional []string
		dest, newName, itemName, hasName := "", "", "", false
		for i := 0; i < len(c.Args); i++ {
			raw := psDash(c.Args[i])
			a := strings.ToLower(raw)
			switch {
			case a == Dynamic:
				paths = append(paths, Dynamic)
				positional = append(positional, Dynamic)
			case strings.HasPrefix(a, "-"):
				// Cut before folding: folding may change a name's
				// length (Ⱥ is 2 bytes, ⱥ 3).
				rawName, inlineValue, inline := strings.Cut(raw[1:], ":")
				name := strings.ToLower(rawName)
				value, hasValue := "", false
				if inline {
					value, hasValue = inlineValue, true
				}
				take := func() {
					if !hasValue && i+1 < len(c.Args) {
						i++
						value, hasValue = c.Args[i], true
					}
				}
				if (prog == "new-item" || prog == "ni") && len(name) >= 2 && strings.HasPrefix("name", name) {
					take()
					itemName, hasName = value, true
					continue
				}
				for _, p := range []string{"path", "literalpath", "destination", "filepath", "pspath", "lp", "newname"} {
					if len(name) >= 2 && strings.HasPrefix(p, name) || name == p {
						take()
						if hasValue {
							paths = append(paths, value)
							switch p {
							case "destination":
								dest = value
							case "newname":
								newName = value
							default:
								sources = append(sources, value)
							}
						}
						break
					}
				}
			default:
				paths = append(paths, c.Args[i])
				positional = append(positional, c.Args[i])
			}
		}
		add(paths...)
		// PowerShell binds the words given by position to the
		// positional parameters not given by name, in order: the path,
		// then the destination or the new name. A parameter charter
		// does not know may take a value (-ErrorAction Stop) and move
		// that order: each word given by position counts as each.
		if len(sources) == 0 {
			sources = positional
		}
		dests, names := positional, positional
		if dest != "" {
			dests = []string{dest}
		}
		if newName != "" {
			names = []string{newName}
		}
		in := func(dir, name string) {
			if dir == Dynamic || name == Dynamic {
				add(Dynamic)
			} else {
				add(path.Join(strings.ReplaceAll(dir, `\`, "/"), name))
			}
		}
		switch prog {
		case "new-item", "ni":
			if hasName {
				// -Name in each folder given, or in the current one.
				add(itemName)
				for _, p := range paths {
					in(p, itemName)
				}
			}
		case "copy-item", "cpi", "copy", "move-item", "mi", "move":
			for _, d := range dests {
				for _, src := range sources {
					if src != d {
						in(d, path.Base(strings.ReplaceAll(src, `\`, "/")))
					}
				}
			}
		case "rename-item", "rni", "ren":
			for _, n := range names {
				for _, src := range sources {
					if src != n {
						in(path.Dir(strings.ReplaceAll(src, `\`, "/")), n)
					}
				}
			}
		}
	}
	return out
}

// tarWritesDirectory reports whether tar may change the files of the
// folder -C names: unless it only makes, lists or compares an archive
// (-c, -t, -r, -u, -A, -d, --delete) without --remove-files, and does
// not extract (-x, --extract, --get). A mode it cannot tell counts.
func tarWritesDirectory(args []string) bool {
	m := readTarMode(args)
	return m.unknown || m.extracts || m.removes || !m.makes && !m.reads
}

// tarWritesArchive reports whether tar may write the archive -f names:
// when it makes, appends to, updates or deletes from one (-c, -r, -u,
// -A, --delete), or its mode cannot be told. Extracting, listing and
// comparing (-x, -t, -d) read it.
func tarWritesArchive(args []string) bool {
	m := readTarMode(args)
	return m.unknown || m.makes || !m.extracts && !m.reads
}

// tarMode is what tar's options say it does.
type tarMode struct {
	extracts, makes, reads, removes bool
	// unknown: a word known only when it runs may be any mode.
	unknown bool
}

func readTarMode(args []string) tarMode {
	var m tarMode
	for _, a := range args {
		if a == "--" {
			break
		}
		if strings.Contains(a, Dynamic) {
			m.unknown = true
			return m
		}
		if name, ok := strings.CutPrefix(a, "--"); ok {
			name, _, _ = strings.Cut(name, "=")
			switch {
			case len(name) >= 2 && (strings.HasPrefix("extract", name) || strings.HasPrefix("get", name)):
				m.extracts = true
			case len(name) >= 2 && strings.HasPrefix("remove-files", name):
				m.removes = true
			case slices.Contains([]string{"create", "append", "update", "catenate", "concatenate", "delete"}, name):
				m.makes = true
			case slices.Contains([]string{"list", "diff", "compare"}, name):
				m.reads = true
			}
			continue
		}
		if !strings.HasPrefix(a, "-") || a == Dynamic {
			continue
		}
		for _, l := range a[1:] {
			switch {
			case l == 'x':
				m.extracts = true
			case strings.ContainsRune("cruA", l):
				m.makes = true
			case strings.ContainsRune("td", l):
				m.reads = true
			}
			if strings.ContainsRune("bCfFgHIKLNTVX", l) {
				break // the rest is the option's value
			}
		}
	}
	return m
}

// psDash writes a PowerShell word's leading en dash, em dash or
// horizontal bar, which PowerShell takes for a parameter's dash, as "-".
func psDash(w string) string {
	for _, d := range []string{"\u2013", "\u2014", "\u2015"} {
		if rest, ok := strings.CutPrefix(w, d); ok {
			return "-" + rest
		}
	}
	return w
}

// cloneDir is the folder git clone URL makes without a DIR, guessed as
// git does (git_url_basename): the URL's last part after the scheme and
// the user, without trailing slashes and spaces, /.git, a host's port,
// and .git (.bundle for a bundle file: both are taken off, either may
// apply), control characters and runs of spaces read as one space, and
// without leading and trailing spaces.
func cloneDir(url string) string {
	if url == Dynamic || strings.HasPrefix(url, Dynamic) {
		return Dynamic
	}
	u := url
	if _, after, ok := strings.Cut(u, "://"); ok {
		u = after
	}
	if i := strings.IndexAny(u, `/\`); i >= 0 {
		if j := strings.LastIndex(u[:i], "@"); j >= 0 {
			u = u[j+1:]
		}
	} else if j := strings.LastIndex(u, "@"); j >= 0 {
		u = u[j+1:]
	}
	sep := func(r rune) bool { return r == '/' || r == '\\' }
	trim := func(s string) string {
		return strings.TrimRightFunc(s, func(r rune) bool { return sep(r) || r == ' ' || r >= '\t' && r <= '\r' })
	}
	u = trim(u)
	if n := len(u); n > 5 && sep(rune(u[n-5])) && u[n-4:] == ".git" {
		u = strings.TrimRightFunc(u[:n-5], sep)
	}
	if !strings.ContainsAny(u, "/") && strings.Contains(u, ":") {
		// host:PORT
		if i := strings.LastIndex(u, ":"); strings.Trim(u[i+1:], "0123456789") == "" {
			u = u[:i]
		}
	}
	if i := strings.LastIndexAny(u, `/\:`); i >= 0 {
		u = u[i+1:]
	}
	if n, ok := strings.CutSuffix(u, ".git"); ok {
		u = n
	} else {
		u = strings.TrimSuffix(u, ".bundle")
	}
	var b strings.Builder
	space := true
	for _, r := range u {
		if r < 0x20 || r == ' ' {
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteRune(r)
	}
	return strings.TrimRight(b.String(), " ")
}

// psPathCmdlets reports whether prog is a PowerShell cmdlet (or alias)
// that writes, moves or deletes the files its paths name.
func psPathCmdlets(prog string) bool {
	switch prog {
	case "set-content", "sc", "add-content", "ac", "out-file", "new-item", "ni", "copy-item", "cpi", "copy",
		"move-item", "mi", "move", "remove-item", "ri", "del", "erase", "rd", "rmdir", "clear-content", "clc",
		"rename-item", "rni", "ren":
		return true
	}
	return false
}

// powerShellPaths reports whether a command's words are PowerShell
// paths, in which \ separates folders: a cmdlet of psPathCmdlets.
func powerShellPaths(prog string) bool {
	return prog != Dynamic && psPathCmdlets(programName(prog))
}

// resolve joins a relative file name to dir, and folds both separators
// PowerShell takes ("/" and "\") to "/".
func resolve(dir, f string) string {
	if f == Dynamic || strings.HasPrefix(f, Dynamic) {
		return Dynamic
	}
	f = strings.ReplaceAll(f, `\`, "/")
	if dir == "" || path.IsAbs(f) || strings.HasPrefix(f, "~") {
		return f
	}
	return path.Join(dir, f)
}

// cdTarget returns the folder c moves the shell to, from dir, when c is
// cd, pushd, popd or PowerShell's Set-Location.
func cdTarget(c *Command, dir string) (string, bool) {
	if !c.Known {
		return "", false
	}
	switch strings.ToLower(c.Program) {
	case "cd", "pushd", "set-location", "sl", "chdir", "push-location":
	case "popd", "pop-location":
		return Dynamic, true
	default:
		return "", false
	}
	var ops []string
	for _, a := range c.Args {
		if a == "--" || strings.HasPrefix(a, "-") && a != "-" && a != Dynamic {
			continue
		}
		ops = append(ops, a)
	}
	switch {
	case len(ops) == 0:
		return "~", true
	case ops[0] == Dynamic, ops[0] == "-", strings.HasPrefix(dir, Dynamic) && !path.IsAbs(ops[0]):
		return Dynamic, true
	case slices.Contains(c.Env, "CDPATH") && !path.IsAbs(ops[0]) && ops[0] != "." && ops[0] != ".." &&
		!strings.HasPrefix(ops[0], "./") && !strings.HasPrefix(ops[0], "../"):
		// cd looks NAME up in CDPATH's folders first (CDPATH=.git;
		// cd hooks enters .git/hooks).
		return Dynamic, true
	}
	return path.Clean(resolve(dir, ops[0])), true
}

// optionValue returns the value of an option of a program charter has no
// spec for, given as -sVALUE, -s VALUE, --long=VALUE or --long VALUE.
func (c *Command) optionValue(short, long string) (string, bool) {
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		switch {
		case a == "--":
			return "", false
		case long != "" && a == "--"+long || a == "-"+short:
			if i+1 < len(c.Args) {
				return c.Args[i+1], true
			}
		case long != "" && strings.HasPrefix(a, "--"+long+"="):
			return strings.TrimPrefix(a, "--"+long+"="), true
		case len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.HasPrefix(a[1:], short):
			return a[1+len(short):], true
		}
	}
	return "", false
}

// inPlace reports whether sed edits its files in place (-i, -i.bak,
// --in-place, -Ei).
func (c *Command) inPlace() bool {
	for _, a := range c.Args {
		switch {
		case a == "--":
			return false
		case strings.HasPrefix(a, "--in-place"):
			return true
		case len(a) > 1 && a[0] == '-' && a[1] != '-' && a != Dynamic:
			// -i's suffix is the rest of the word: -ni is -n -i, -in is
			// -i with suffix n.
			for k := 1; k < len(a); k++ {
				if a[k] == 'i' {
					return true
				}
				if a[k] == 'e' || a[k] == 'f' || a[k] == 'l' {
					break
				}
			}
		}
	}
	return false
}

// sedFiles returns the files sed reads (and with -i writes): its
// operands, but the first when no -e, -f or --expression gives the
// script.
func (c *Command) sedFiles() []string {
	var files []string
	script := false
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		switch {
		case a == "--":
			files = append(files, c.Args[i+1:]...)
			i = len(c.Args)
		case a == "-e" || a == "-f" || a == "-l":
			script = script || a != "-l"
			i++
		case strings.HasPrefix(a, "--expression") || strings.HasPrefix(a, "--file"):
			script = true
			if !strings.Contains(a, "=") {
				i++
			}
		case len(a) > 1 && a[0] == '-' && a != Dynamic:
			if k := strings.IndexAny(a[1:], "ef"); k >= 0 && !strings.Contains(a[1:k+1], "i") {
				script = true
				if k+2 == len(a) {
					i++
				}
			}
		default:
			files = append(files, a)
		}
	}
	if !script && len(files) > 0 {
		files = files[1:]
	}
	return files
}
