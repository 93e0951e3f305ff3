package rules

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/charter-dev/charter/internal/enforce/shell"
)

// ProtectRule is the rule id of a call blocked for changing a protected
// file (shell.ProtectedFile): one whose content makes code run when an
// everyday command runs (.git/config, .git/hooks, .gitattributes, the
// shell's start-up files, .envrc, .ssh/config), or that holds the agent
// runtime's own policy (.claude/settings.json, which holds charter's
// hook; .mcp.json).
const ProtectRule = "protected_files"

// slashTools are Claude Code's tools whose command argument is a slash
// command, not a shell's.
var slashTools = []string{"SlashCommand"}

// readTools are the charter tools, and Claude Code's names, that only
// read the file their path names.
var readTools = []string{"read_file", "list_dir", "list_files", "Read", "Grep", "Glob", "LSP", "NotebookRead"}

// protect judges what the call changes: the file its path names (unless
// its tool only reads), and the files the commands of its command
// argument change or the folders they enter. It returns the block, or
// false when the call changes no protected file the profile does not
// allow.
func (e *Engine) protect(ev *evaluation) (Firing, bool) {
	var hits []shell.Protection
	if !e.onlyReads(ev.tool) {
		// Every argument that names the call's path: a runtime may
		// write another than the first (callPath) names.
		for _, k := range pathKeys {
			if s, ok := ev.args[k].(string); ok && s != "" {
				p := path.Clean(s)
				if why := shell.ProtectedFile(p); why != "" {
					hits = append(hits, shell.Protection{File: p, Why: why})
				}
			}
		}
	}
	if ev.cmds.has {
		// A command charter cannot read is judged by the gate and the
		// rules, where it fails closed when they read commands, and
		// after them by protectUnreadable; here only what it can read.
		cmds, _ := ev.cmds.commands()
		for i := range cmds {
			hits = append(hits, cmds[i].Protected()...)
		}
	}
	for _, h := range hits {
		if e.allowsProtected(h.File) {
			continue
		}
		name := h.File
		if name == shell.Dynamic {
			name = "a file named only when the command runs"
		} else {
			name = strings.ReplaceAll(name, shell.Dynamic, "$...")
		}
		return Firing{Rule: ProtectRule, Action: Block, Message: fmt.Sprintf(
			"charter protects %s: %s, so an agent that changes it could make code run, or change its own rules, beyond what it may do; "+
				"change it yourself, or let this profile's agents change it: allow_protected_writes: [%q]", name, h.Why, allowPattern(h.File))}, true
	}
	return Firing{}, false
}

// onlyReads reports whether the tool only reads the file its path names:
// a reading tool, a runtime's name for one, or a tool of the profile's
// read family and of no edit or write family.
func (e *Engine) onlyReads(tool string) bool {
	if slices.Contains(readTools, tool) || slices.Contains(readTools, e.mapped(tool)) {
		return true
	}
	fams := e.toolFamilies(tool)
	return slices.Contains(fams, "read") && !slices.Contains(fams, "edit") && !slices.Contains(fams, "write")
}

// allowsProtected reports whether the profile's allow_protected_writes
// admits changing file: a pattern matches the last path elements of the
// file or of a folder that holds it, each by path.Match, case folded
// ("*" admits every file, a name known only when the command runs
// included).
func (e *Engine) allowsProtected(file string) bool {
	f := strings.ToLower(strings.ReplaceAll(file, `\`, "/"))
	parts := strings.Split(path.Clean(f), "/")
	for _, p := range e.profile.AllowProtectedWrites {
		if p == "*" {
			return true
		}
		if file == shell.Dynamic || strings.Contains(file, shell.Dynamic) {
			continue
		}
		pp := strings.Split(path.Clean(strings.ToLower(p)), "/")
		for end := len(parts); end >= len(pp); end-- {
			if matchElems(pp, parts[end-len(pp):end]) {
				return true
			}
		}
	}
	return false
}

// matchElems reports whether each path element matches its pattern.
func matchElems(patterns, elems []string) bool {
	for i := range patterns {
		if m, err := path.Match(patterns[i], elems[i]); err != nil || !m {
			return false
		}
	}
	return true
}

// allowPattern is the allow_protected_writes entry that admits file:
// from the innermost dot-folder that holds it (.git/hooks/pre-commit,
// .claude/settings.json), else its name; "*" for a name known only when
// the command runs.
func allowPattern(file string) string {
	if strings.Contains(file, shell.Dynamic) {
		return "*"
	}
	parts := strings.Split(path.Clean(strings.ReplaceAll(file, `\`, "/")), "/")
	from := len(parts) - 1
	for i := len(parts) - 2; i >= 0; i-- {
		if strings.HasPrefix(parts[i], ".") && parts[i] != "." && parts[i] != ".." {
			from = i
			break
		}
	}
	return strings.Join(parts[from:], "/")
}

// protectUnreadable blocks a call whose command charter cannot read (it
// does not parse, or is longer or deeper than the shell reader reads, or
// a tool that runs commands carries it elsewhere than in command) unless
// the profile allows every protected write ("*"): it may change any
// file, and bash runs a -c string's lines one by one, those before a
// syntax error included. protect sees only what it can read; this runs
// after the rules, so that a rule that fails closed on the command says
// so first.
func (e *Engine) protectUnreadable(ev *evaluation) (Firing, bool) {
	if !ev.cmds.has || !e.runsCommands(ev.tool) && (e.onlyReads(ev.tool) || slices.Contains(slashTools, ev.tool)) {
		// A tool that only reads, or whose command no shell runs: a
		// slash command may hold an apostrophe (/explain what's this).
		return Firing{}, false
	}
	_, err := ev.cmds.commands()
	if err == nil || e.allowsProtected(shell.Dynamic) {
		return Firing{}, false
	}
	return Firing{Rule: ProtectRule, Action: Block, Message: fmt.Sprintf(
		"charter cannot read the command (%v), so it cannot tell whether it changes a protected file (.git, .claude/settings.json, a shell's start-up file...); "+
			"write it so that it parses, or let this profile's agents change protected files: allow_protected_writes: [\"*\"]", err)}, true
}

// protectCut blocks a call past the limits (judged on the part within
// them, under --on-error allow) whose cut left out a path argument the
// call has: the file it changes is unseen, and may be a protected one.
func (e *Engine) protectCut(ev *evaluation, full map[string]any) (Firing, bool) {
	if e.onlyReads(ev.tool) || e.allowsProtected(shell.Dynamic) {
		return Firing{}, false
	}
	for _, k := range pathKeys {
		if s, ok := full[k].(string); ok && s != "" {
			if _, kept := ev.args[k]; !kept {
				return Firing{Rule: ProtectRule, Action: Block, Message: fmt.Sprintf(
					"the call holds more than charter judges, and its %s was left out, so charter cannot tell whether it changes a protected file; "+
						"make the call within the limits, or let this profile's agents change protected files: allow_protected_writes: [\"*\"]", k)}, true
			}
		}
	}
	return Firing{}, false
}
