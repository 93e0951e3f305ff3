package shell

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// readGit reads git, and the commands its configuration makes it run:
// an alias (-c alias.NAME=VALUE for the subcommand NAME), a setting that
// names a command (-c core.pager=CMD), and the same set with git config,
// whose value runs later. Each is read as the command git runs, named in
// via ("git alias", "git -c core.pager", "git config core.pager").
func readGit(r *reader, c Command, via []string, depth int) error {
	globals, sub, rest, configs := gitGlobals(c.Args)
	for i, g := range globals {
		if strings.HasPrefix(g, "--exec-path=") {
			// As GIT_EXEC_PATH: git-submodule, git-remote-https and the
			// other programs git runs come from that folder.
			return r.unknown(c, "git --exec-path=DIR runs git's own programs (git-submodule, git-remote-https, ...) from DIR, which charter does not read")
		}
		dir, isDir := strings.CutPrefix(g, "--git-dir=")
		if g == "--git-dir" && i+1 < len(globals) {
			dir, isDir = globals[i+1], true
		}
		if isDir && !dotGit(dir) {
			// DIR/config is git's configuration then (core.fsmonitor,
			// aliases, hooks), though DIR is no .git folder.
			return r.unknown(c, "git --git-dir=DIR reads its configuration (aliases, core.fsmonitor, hooks) from DIR, which charter does not read")
		}
	}
	for _, v := range c.Env {
		switch v {
		case "GIT_DIR", "GIT_COMMON_DIR", "HOME", "XDG_CONFIG_HOME":
			return r.unknown(c, fmt.Sprintf("git with %s set reads its configuration (aliases, core.fsmonitor, hooks) from a place charter does not read", v))
		}
	}
	for _, kv := range configs {
		if kv.fromEnv && (kv.key == "alias."+strings.ToLower(sub) || gitKeyRuns(kv.key, "") != "") {
			return r.unknown(c, fmt.Sprintf("git --config-env sets %s from the environment: what git runs is known only when the command runs", kv.key))
		}
	}
	// git takes a setting's last value: -c alias.x=status -c
	// alias.x='!CMD' runs CMD.
	for i := len(configs) - 1; i >= 0; i-- {
		if kv := configs[i]; kv.key == "alias."+strings.ToLower(sub) {
			return r.gitAlias(c, globals, kv.value, rest, via, depth)
		}
	}
	if sub == Dynamic || sub != "" && !gitCommand(sub) {
		return r.unknown(c, fmt.Sprintf("git %s is no git command: an alias from a configuration charter does not read, or another program (git-%s)", strings.ReplaceAll(sub, Dynamic, "$..."), strings.ReplaceAll(sub, Dynamic, "$...")))
	}
	c.normalize()
	r.out = append(r.out, c)
	for _, kv := range configs {
		if err := r.gitSetting(c, kv.key, kv.value, "git -c "+kv.key, via, depth); err != nil {
			return err
		}
	}
	if err := r.gitSubcommandRuns(c, sub, rest, via, depth); err != nil {
		return err
	}
	if sub == "init" || sub == "clone" || sub == "init-db" {
		if err := r.gitNewRepository(c, sub, rest, via, depth); err != nil {
			return err
		}
	}
	if sub == "config" {
		if key, value, ok := gitConfigSet(rest); ok {
			if name, isAlias := strings.CutPrefix(key, "alias."); isAlias && name != "" {
				return r.gitAlias(c, globals, value, nil, via, depth)
			}
			return r.gitSetting(c, key, value, "git config "+key, via, depth)
		}
	}
	return nil
}

// dotGit reports whether dir is a folder named .git (what git finds by
// itself; a file written there is one charter's protected files name).
func dotGit(dir string) bool {
	return dir != Dynamic && path.Base(path.Clean(dir)) == ".git"
}

// gitConfig is one -c or --config-env of git's command line.
type gitConfig struct {
	key, value string
	fromEnv    bool
}

// gitGlobals splits git's arguments: the global options (kept, for an
// alias's expansion), the subcommand, its arguments, and the settings
// -c and --config-env make (keys lower-cased, as git compares them).
func gitGlobals(args []string) (globals []string, sub string, rest []string, configs []gitConfig) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-c" || a == "--config-env":
			if i+1 >= len(args) {
				return args, "", nil, configs
			}
			globals = append(globals, a, args[i+1])
			i++
			configs = append(configs, parseGitConfig(args[i], a == "--config-env"))
		case strings.HasPrefix(a, "--config-env="):
			globals = append(globals, a)
			configs = append(configs, parseGitConfig(strings.TrimPrefix(a, "--config-env="), true))
		case a == "-C" || a == "--git-dir" || a == "--work-tree" || a == "--namespace" || a == "--super-prefix" || a == "--list-cmds" || a == "--attr-source":
			globals = append(globals, a)
			if i+1 < len(args) {
				i++
				globals = append(globals, args[i])
			}
		case strings.HasPrefix(a, "-") && a != Dynamic && a != "-" && a != "--":
			globals = append(globals, a)
		default:
			return globals, a, args[i+1:], configs
		}
	}
	return globals, "", nil, configs
}

func parseGitConfig(s string, fromEnv bool) gitConfig {
	if s == Dynamic {
		return gitConfig{key: Dynamic, fromEnv: true}
	}
	key, value, _ := strings.Cut(s, "=")
	if strings.Contains(key, Dynamic) || strings.Contains(value, Dynamic) {
		fromEnv = true
	}
	return gitConfig{key: strings.ToLower(key), value: value, fromEnv: fromEnv}
}

// gitKeyRuns says what git does with the value of the setting key:
// "code" (runs it as a shell command), "bang" (runs what follows its !),
// "credential" (a credential helper), "elsewhere" (runs or reads what a file or folder holds,
// which charter does not read), or "" (nothing charter reads as code).
func gitKeyRuns(key, value string) string {
	if key == Dynamic {
		return "elsewhere"
	}
	section, last := key, ""
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		section, last = key[:i], key[i+1:]
	}
	first, _, _ := strings.Cut(section, ".")
	sub := strings.Contains(section, ".")
	switch {
	case !sub && slices.Contains([]string{"core.pager", "core.editor", "core.sshcommand", "core.askpass", "core.fsmonitor", "core.gitproxy",
		"core.alternaterefscommand", "sequence.editor", "diff.external", "gpg.program", "interactive.difffilter", "sendemail.sendmailcmd",
		"sendemail.tocmd", "sendemail.cccmd", "sendemail.headercmd", "uploadpack.packobjectshook", "instaweb.httpd"}, key),
		first == "pager",
		sub && first == "diff" && (last == "command" || last == "textconv"),
		sub && first == "merge" && last == "driver",
		sub && first == "filter" && (last == "clean" || last == "smudge" || last == "process"),
		sub && first == "gpg" && (last == "program" || last == "defaultkeycommand"),
		sub && (first == "browser" || first == "man" || first == "mergetool" || first == "difftool") && (last == "cmd" || last == "path"),
		sub && first == "remote" && (last == "receivepack" || last == "uploadpack"),
		sub && first == "sendemail" && (last == "sendmailcmd" || last == "tocmd" || last == "cccmd" || last == "headercmd"),
		sub && first == "trailer" && (last == "cmd" || last == "command"),
		sub && first == "guitool" && last == "cmd":
		return "code"
	case last == "smtpserver" && first == "sendemail" && strings.HasPrefix(value, "/"):
		return "code" // a program's path, not a server
	case sub && first == "submodule" && last == "update" && strings.HasPrefix(value, "!"):
		return "bang"
	case first == "credential" && last == "helper":
		return "credential"
	case key == "core.hookspath":
		if value == "/dev/null" {
			return ""
		}
		return "elsewhere"
	case key == "include.path", first == "includeif" && last == "path", key == "init.templatedir":
		return "elsewhere"
	case (key == "protocol.allow" || key == "protocol.ext.allow") && value != "never":
		return "elsewhere"
	}
	return ""
}

// gitSetting reads the command a setting makes git run.
func (r *reader) gitSetting(c Command, key, value, how string, via []string, depth int) error {
	switch gitKeyRuns(key, value) {
	case "code":
		return r.code(c, value, how, via, depth)
	case "bang":
		return r.code(c, strings.TrimPrefix(value, "!"), how, via, depth)
	case "credential":
		if code, ok := strings.CutPrefix(value, "!"); ok {
			return r.code(c, code, how, via, depth)
		}
		if value == "" {
			return nil
		}
		if value == Dynamic || !strings.Contains(value, "/") {
			// A helper named NAME is the program git-credential-NAME.
			value = "git-credential-" + value
		}
		return r.code(c, value, how, via, depth)
	case "elsewhere":
		return r.unknown(c, fmt.Sprintf("git's %s makes git run or read what a file or folder holds, which charter does not read", key))
	}
	return nil
}

// gitNewRepository reads what git init and git clone put in the new
// repository that runs later: the hooks of a --template folder (clone
// runs post-checkout at once), and the settings clone -c stores in its
// config, read as git config's are.
func (r *reader) gitNewRepository(c Command, sub string, rest []string, via []string, depth int) error {
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			return nil
		}
		if _, _, ok := longOption(a, "template"); ok && len(a) > len("--t") {
			return r.unknown(c, "git "+sub+" --template=DIR copies DIR's hooks into the new repository, and git runs them; charter does not read DIR")
		}
		if sub != "clone" {
			continue
		}
		kv, isConfig := "", false
		v, hasValue, long := longOption(a, "config")
		switch {
		case long && len(a) > len("--con") && hasValue:
			kv, isConfig = v, true
		case long && len(a) > len("--con") || a == "-c":
			if i+1 < len(rest) {
				i++
				kv, isConfig = rest[i], true
			}
		case strings.HasPrefix(a, "-c") && len(a) > 2 && !strings.HasPrefix(a, "--"):
			kv, isConfig = a[2:], true
		}
		if !isConfig {
			continue
		}
		cfg := parseGitConfig(kv, false)
		if cfg.fromEnv {
			return r.unknown(c, "git clone -c sets a setting known only when the command runs")
		}
		if name, isAlias := strings.CutPrefix(cfg.key, "alias."); isAlias && name != "" {
			if err := r.gitAlias(c, nil, cfg.value, nil, via, depth); err != nil {
				return err
			}
			continue
		}
		if err := r.gitSetting(c, cfg.key, cfg.value, "git clone -c "+cfg.key, via, depth); err != nil {
			return err
		}
	}
	return nil
}

// gitAlias reads what git runs for an alias of value, given the
// arguments rest: a shell command (!CODE) with the arguments, or git
// with the alias's words and the arguments.
func (r *reader) gitAlias(c Command, globals []string, value string, rest []string, via []string, depth int) error {
	if value == Dynamic || strings.Contains(value, Dynamic) {
		return r.unknown(c, "the git alias runs a command known only when the command runs")
	}
	how := append(slices.Clip(via), "git alias")
	if code, ok := strings.CutPrefix(value, "!"); ok {
		// git runs sh -c 'CODE "$@"' with the arguments.
		for _, a := range rest {
			if a == Dynamic {
				code += ` "$_"`
			} else {
				code += " '" + strings.ReplaceAll(a, "'", `'\''`) + "'"
			}
		}
		return r.code(c, code, "git alias", via, depth)
	}
	var words []string
	var err error
	for w, werr := range syntax.NewParser(syntax.Variant(syntax.LangBash)).WordsSeq(strings.NewReader(value)) {
		if werr != nil {
			err = werr
			break
		}
		words = append(words, r.fields(w)...)
	}
	if err != nil || len(words) == 0 {
		return r.unknown(c, "charter cannot read the git alias's command")
	}
	argv := append(append(append([]string{c.Path}, globals...), words...), rest...)
	return r.command(argv, c.Env, c.Writes, how, depth)
}

// gitConfigSet returns the key and value git config sets, when it sets
// one (git config KEY VALUE, git config set KEY VALUE).
func gitConfigSet(args []string) (key, value string, ok bool) {
	var operands []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--file" || a == "-f" || a == "--blob" || a == "--type" || a == "--default" || a == "--comment" || a == "--value":
			i++
		case a == "--":
			operands = append(operands, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "-") && a != Dynamic:
			// The options that make git config do something else than
			// set KEY VALUE; any other (--no-includes, --show-origin, one
			// a newer git adds) leaves KEY VALUE a setting.
			name := strings.SplitN(a, "=", 2)[0]
			switch {
			case strings.HasPrefix(name, "--get"), strings.HasPrefix(name, "--unset"), name == "--list", name == "-l",
				name == "--edit", name == "-e", name == "--rename-section", name == "--remove-section":
				return "", "", false
			}
		default:
			operands = append(operands, a)
		}
	}
	if len(operands) > 0 && operands[0] == "set" {
		operands = operands[1:]
	}
	if len(operands) < 2 || operands[0] == Dynamic {
		return "", "", false
	}
	return strings.ToLower(operands[0]), operands[1], true
}

// unknown lists c as a command whose program is known only when it runs.
func (r *reader) unknown(c Command, why string) error {
	c.Program, c.Known, c.Reason = "", false, why
	r.out = append(r.out, c)
	return nil
}

// gitRunOptions are, per subcommand, its options whose value is a command
// git runs (through the shell), by long name and short letter.
var gitRunOptions = map[string]struct {
	long  []string
	short string
}{
	"rebase":        {[]string{"exec"}, "x"},
	"filter-branch": {[]string{"env-filter", "tree-filter", "index-filter", "parent-filter", "msg-filter", "commit-filter", "tag-name-filter"}, ""},
	"difftool":      {[]string{"extcmd"}, "x"},
	"mergetool":     {[]string{"tool-cmd"}, ""},
	"fetch":         {[]string{"upload-pack"}, ""},
	"pull":          {[]string{"upload-pack"}, ""},
	"ls-remote":     {[]string{"upload-pack"}, ""},
	"clone":         {[]string{"upload-pack"}, "u"},
	"push":          {[]string{"receive-pack", "exec"}, ""},
	"send-pack":     {[]string{"receive-pack", "exec"}, ""},
	"fetch-pack":    {[]string{"upload-pack", "exec"}, ""},
	"archive":       {[]string{"exec"}, ""},
	"grep":          {[]string{"open-files-in-pager"}, "O"},
	"send-email":    {[]string{"sendmail-cmd", "to-cmd", "cc-cmd", "header-cmd"}, ""},
}

// gitSubcommandRuns reads the commands git's own options make it run:
// git rebase --exec CMD, git bisect run CMD, git submodule foreach CMD,
// git filter-branch --tree-filter CMD, ...
func (r *reader) gitSubcommandRuns(c Command, sub string, rest []string, via []string, depth int) error {
	how := "git " + sub
	switch sub {
	case "bisect":
		if len(rest) > 1 && rest[0] == "run" {
			return r.command(rest[1:], c.Env, nil, append(slices.Clip(via), how), depth)
		}
		return nil
	case "submodule":
		for i, a := range rest {
			if a == "foreach" {
				code := rest[i+1:]
				for len(code) > 0 && strings.HasPrefix(code[0], "-") && code[0] != Dynamic {
					code = code[1:]
				}
				if len(code) == 0 {
					return nil
				}
				if slices.Contains(code, Dynamic) {
					return r.code(c, Dynamic, how, via, depth)
				}
				return r.code(c, strings.Join(code, " "), how, via, depth)
			}
			if !strings.HasPrefix(a, "-") {
				return nil
			}
		}
		return nil
	}
	opts, ok := gitRunOptions[sub]
	if !ok {
		return nil
	}
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			break
		}
		var value string
		found := false
		// parse-options takes a long option by a prefix (--exe=CMD).
		long, v, hasValue := "", "", false
		for _, l := range opts.long {
			if v, hasValue, found = longOption(a, l); found {
				long = l
				break
			}
		}
		if found {
			value = v
			if !hasValue {
				if long == "open-files-in-pager" {
					continue // -O alone: the default pager
				}
				if i+1 < len(rest) {
					i++
					value = rest[i]
				}
			}
		} else if len(a) > 1 && a[0] == '-' && a[1] != '-' && opts.short != "" && a != Dynamic {
			if j := strings.IndexAny(a[1:], opts.short); j >= 0 {
				found, value = true, a[j+2:]
				if value == "" && a[1:][j] != 'O' && i+1 < len(rest) {
					i++
					value = rest[i]
				}
			}
		}
		if found && value != "" {
			if err := r.code(c, value, how, via, depth); err != nil {
				return err
			}
		}
	}
	return nil
}

// gitCommands are git's commands (git --list-cmds=main of git 2.39, and
// those newer gits added): a subcommand outside them is an alias or
// another program.
var gitCommands = strings.Fields(`add add--interactive am annotate apply archive bisect bisect--helper blame branch
bugreport bundle cat-file check-attr check-ignore check-mailmap check-ref-format checkout checkout--worker
checkout-index cherry cherry-pick citool clean clone column commit commit-graph commit-tree config count-objects
credential credential-cache credential-cache--daemon credential-store daemon describe diagnose diff diff-files
diff-index diff-pairs diff-tree difftool difftool--helper env--helper fast-export fast-import fetch fetch-pack
filter-branch fmt-merge-msg for-each-ref for-each-repo format-patch fsck fsck-objects fsmonitor--daemon gc
get-tar-commit-id grep gui hash-object help hook http-backend http-fetch http-push imap-send index-pack init
init-db instaweb interpret-trailers k last-modified log ls-files ls-remote ls-tree mailinfo mailsplit maintenance
merge merge-base merge-file merge-index merge-octopus merge-one-file merge-ours merge-recursive merge-recursive-ours
merge-recursive-theirs merge-resolve merge-subtree merge-tree mergetool mktag mktree multi-pack-index mv name-rev
notes pack-objects pack-redundant pack-refs patch-id pickaxe prune prune-packed pull push quiltimport range-diff
read-tree rebase receive-pack reflog refs remote remote-ext remote-fd remote-ftp remote-ftps remote-http
remote-https repack replace replay repo request-pull rerere reset restore rev-list rev-parse revert rm
scalar send-email send-pack sh-i18n--envsubst shell shortlog show show-branch show-index show-ref sparse-checkout stage stash
status stripspace submodule submodule--helper subtree svn switch symbolic-ref tag unpack-file unpack-objects
update-index update-ref update-server-info upload-archive upload-archive--writer upload-pack var verify-commit
verify-pack verify-tag version web--browse whatchanged worktree write-tree backfill`)

func gitCommand(sub string) bool { return slices.Contains(gitCommands, sub) }

// commandVars are the environment variables whose value a program runs
// as a command when it needs one (git's ssh and editors, the editor of
// every program that asks for one): the value is read as code where it
// is set.
var commandVars = []string{"GIT_SSH_COMMAND", "GIT_SSH", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "EDITOR", "VISUAL", "GIT_PAGER", "PAGER", "MANPAGER",
	"GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_PROXY_COMMAND", "RSYNC_RSH"}

// builtinSetsCommandVar reads what a builtin stores in a variable of
// commandVars: export NAME=CODE behind builtin or command (the shell's own
// export is read where it is parsed), and text read, printf -v, mapfile
// or getopts store, known only when the command runs (read GIT_PAGER < f).
func (r *reader) builtinSetsCommandVar(c Command, via []string, depth int) error {
	switch c.Program {
	case "read", "printf", "wait", "mapfile", "readarray", "getopts":
		var names []string
		switch c.Program {
		case "read":
			names = operandsAfter(c.Args, "adinNptu", "a")
		case "printf", "wait":
			names = optionValues(c.Args, "v", "p")
		case "getopts":
			if len(c.Args) >= 2 {
				names = c.Args[1:2]
			}
		default:
			names = operandsAfter(c.Args, "dnOsuCc", "")
		}
		for _, n := range names {
			if err := r.commandVar(n, Dynamic, via, depth); err != nil {
				return err
			}
		}
	default:
		for _, a := range c.Args {
			if name, value, ok := strings.Cut(a, "="); ok {
				if err := r.commandVar(name, value, via, depth); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// commandVar reads the command an environment variable of commandVars
// names, set to value (Dynamic: known only when it runs).
func (r *reader) commandVar(name, value string, via []string, depth int) error {
	if !slices.Contains(commandVars, name) || value == "" {
		return nil
	}
	return r.code(Command{Path: name}, value, name, via, depth)
}
