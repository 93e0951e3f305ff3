package shell

import (
	"path"
	"slices"
	"strings"
)

// ProtectedFile says why a file is one whose content makes code run
// when an everyday command runs, or changes the agent runtime's own
// policy, or "" when it is none of these:
//
//   - anything in a .git folder (its config: aliases, core.fsmonitor,
//     core.hooksPath, filter drivers; its hooks), and a .git file (which
//     names the repository's folder);
//   - .gitattributes, .gitconfig, .config/git/config and attributes;
//   - Claude Code's settings (.claude/settings.json,
//     .claude/settings.local.json, managed-settings.json, .claude.json:
//     hooks, charter's among them, and permissions) and .mcp.json (the
//     MCP servers it starts);
//   - the shell's start-up files (.bashrc, .profile, .zshrc, ...),
//     direnv's .envrc, ssh's .ssh/config and .ssh/rc.
//
// Names are compared as a case-insensitive file system sees them. A file
// named only when the command runs (Dynamic), or in a folder known only
// then, is protected when its name could be one of these.
func ProtectedFile(p string) string {
	if p == "" {
		return ""
	}
	if p == Dynamic {
		return "its name is known only when the command runs"
	}
	unknownDir := strings.HasPrefix(p, Dynamic)
	parts := pathElems(p)
	base := parts[len(parts)-1]
	parent := ""
	if len(parts) > 1 {
		parent = parts[len(parts)-2]
	}
	switch {
	case slices.Contains(parts, ".git"):
		return "git runs what .git holds (its config's aliases, core.fsmonitor, core.hooksPath and filters; its hooks)"
	case base == ".gitattributes" || base == ".gitconfig" || parent == "git" && len(parts) > 2 && parts[len(parts)-3] == ".config" && (base == "config" || base == "attributes"):
		return "git runs the filter and diff drivers it names"
	case (parent == ".claude" || unknownDir) && (base == "settings.json" || base == "settings.local.json"),
		base == "managed-settings.json", base == ".claude.json":
		return "it holds Claude Code's settings: its hooks (charter's among them) and permissions"
	case base == ".mcp.json":
		return "Claude Code starts the MCP servers it names"
	case slices.Contains(shellStartFiles, base):
		return "a shell runs it when it starts"
	case base == ".envrc":
		return "direnv runs it when a shell enters its folder"
	case (parent == ".ssh" || unknownDir) && (base == "config" || base == "rc" || base == "environment"):
		return "ssh runs the commands it names (ProxyCommand, LocalCommand, Match exec)"
	case unknownDir && (base == "config" || base == "attributes" || slices.Contains(gitHookNames, base)):
		return "it is in a folder known only when the command runs, and a file of that name there may be git's"
	}
	return ""
}

// ProtectedFolder says why entering a folder (cd) lets a later command
// change protected files by their bare names, or "": .git, .claude,
// .ssh and git's folder under .config.
func ProtectedFolder(p string) string {
	parts := pathElems(p)
	for i, d := range parts {
		if d == ".git" || d == ".claude" || d == ".ssh" || d == "git" && i > 0 && parts[i-1] == ".config" {
			return "its files (" + d + ") make code run or hold the runtime's settings, and a later command can change them by their bare names"
		}
	}
	return ""
}

// isProtectedFolder reports whether p is itself one of ProtectedFolder's
// folders (.git, .claude, .ssh, .config/git), not a file in one.
func isProtectedFolder(p string) bool {
	if p == "" || p == Dynamic {
		return false
	}
	parts := pathElems(p)
	n := len(parts)
	last := parts[n-1]
	return last == ".git" || last == ".claude" || last == ".ssh" || last == "git" && n > 1 && parts[n-2] == ".config"
}

// pathElems returns a path's elements as the file systems agents run on
// compare them: cleaned, "\\" read as "/", case folded, and each
// without what Windows drops or reads as the file itself (trailing dots
// and spaces, an NTFS ::$DATA stream: settings.json::$DATA and
// settings.json. are settings.json).
func pathElems(p string) []string {
	p = strings.ReplaceAll(strings.TrimPrefix(p, Dynamic), `\`, "/")
	// Folded as macOS and Windows find names (ſ is s, K is k), and
	// without the code points HFS+ ignores (git's is_hfs_dotgit).
	p = strings.ToLower(strings.ToUpper(strings.Map(func(r rune) rune {
		if hfsIgnored(r) {
			return -1
		}
		return r
	}, p)))
	parts := strings.Split(path.Clean(p), "/")
	for i, e := range parts {
		if k := strings.Index(e, "::"); k > 0 {
			e = e[:k]
		}
		if t := strings.TrimRight(e, ". "); t != "" && e != "." && e != ".." {
			e = t
		}
		parts[i] = e
	}
	return parts
}

// hfsIgnored reports whether HFS+ ignores r in a name: zero-width
// joiners and marks, direction controls, and the byte order mark.
func hfsIgnored(r rune) bool {
	return r >= 0x200c && r <= 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x206a && r <= 0x206f || r == 0xfeff
}

// shellStartFiles are the files shells run when they start.
var shellStartFiles = []string{".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zshenv",
	".zprofile", ".zlogin", ".zlogout", ".kshrc", ".mkshrc", ".cshrc", ".tcshrc", ".login", ".logout", "config.fish"}

// gitHookNames are the hooks git runs from its hooks folder (githooks(5)).
var gitHookNames = strings.Fields(`applypatch-msg pre-applypatch post-applypatch pre-commit pre-merge-commit
prepare-commit-msg commit-msg post-commit pre-rebase post-checkout post-merge pre-push pre-receive update
proc-receive post-receive post-update reference-transaction push-to-checkout pre-auto-gc post-rewrite
sendemail-validate fsmonitor-watchman p4-changelist p4-prepare-changelist p4-post-changelist p4-pre-submit
post-index-change`)

// Protection is a protected file a command changes, or a protected
// folder it enters, and why it is protected.
type Protection struct {
	File string
	Why  string
}

// Protected lists the protected files (ProtectedFile) among the files c
// changes, and the folder it enters when that is protected
// (ProtectedFolder).
func (c *Command) Protected() []Protection {
	var out []Protection
	for _, w := range c.Changes {
		for _, f := range globMatches(w) {
			if why := ProtectedFile(f); why != "" {
				out = append(out, Protection{File: f, Why: why})
			} else if isProtectedFolder(f) {
				// tar -C .claude, cp -r d/. .claude, mv .claude x, rm -r
				// .claude: the files in it change, whatever their names.
				out = append(out, Protection{File: f, Why: "the command writes into, replaces or deletes the folder, whose files (" +
					path.Base(path.Clean(strings.ReplaceAll(f, `\`, "/"))) + ") make code run or hold the runtime's settings"})
			}
		}
	}
	if c.Enters != "" {
		if why := ProtectedFolder(c.Enters); why != "" {
			out = append(out, Protection{File: c.Enters, Why: why})
		}
	}
	return out
}

// globMatches returns the paths a word may name once the shell expands
// its globs: the word itself, and, for each element that holds *, ? or
// [, each name ProtectedFile and isProtectedFolder know that it matches
// (case folded; a leading dot only by a leading dot, as bash without
// dotglob matches).
func globMatches(word string) []string {
	if word == Dynamic || !strings.ContainsAny(strings.TrimPrefix(word, Dynamic), "*?[") {
		return []string{word}
	}
	const most = 256
	paths := []string{""}
	elems := strings.Split(strings.ReplaceAll(word, `\`, "/"), "/")
	for i, e := range elems {
		opts := []string{e}
		if strings.ContainsAny(e, "*?[") {
			pat := strings.ToLower(e)
			for _, n := range globNames() {
				if strings.HasPrefix(n, ".") && !strings.HasPrefix(pat, ".") {
					continue
				}
				// Protected by name anywhere, but only where they
				// work: rm -rf * is everyday, and matches them.
				if dir, ok := globNameDirs[n]; ok && (i == 0 || strings.ToLower(elems[i-1]) != dir) {
					continue
				}
				if ok, err := path.Match(pat, n); err == nil && ok {
					opts = append(opts, n)
				}
			}
		}
		var next []string
		for _, p := range paths {
			for _, o := range opts {
				if i > 0 {
					o = p + "/" + o
				}
				next = append(next, o)
			}
		}
		if len(next) > most {
			return []string{word, Dynamic}
		}
		paths = next
	}
	return paths
}

// globNameDirs are the names ProtectedFile protects wherever they are,
// that a glob is tried against only in the folder where they work.
var globNameDirs = map[string]string{"managed-settings.json": "claude-code", "config.fish": "fish"}

// globNames are the names of protected files and folders a glob is
// tried against.
func globNames() []string {
	names := []string{".git", ".claude", ".ssh", ".config", "git", "hooks", ".gitattributes", ".gitconfig", "config", "attributes",
		"settings.json", "settings.local.json", "managed-settings.json", ".claude.json", ".mcp.json", ".envrc", "rc", "environment"}
	names = append(names, shellStartFiles...)
	return append(names, gitHookNames...)
}
