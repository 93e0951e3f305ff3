package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/charter-dev/charter/internal/testkit/claudetest"
	"github.com/charter-dev/charter/internal/testkit/realtool"
)

// claudeCondition answers [claude]: the real Claude Code binary that the
// pinned @anthropic-ai/claude-agent-sdk installs is there. When it is
// not, the script skips, except in CI (CI=true), where .ci/run installs
// it: the script fails.
func claudeCondition() (bool, error) {
	if claudetest.Binary() != "" {
		return true, nil
	}
	if realtool.InCI() {
		return false, fmt.Errorf("%s, and CI is set", claudetest.Missing())
	}
	return false, nil
}

// scriptClaude runs the real Claude Code, offline, in the script's current
// folder: `claude SCRIPT.json [ARGS...]`. SCRIPT.json is a
// claudetest.Script, the model's turns, with $VAR and ${VAR}
// replaced by the script's variables ($WORK); ARGS are more arguments for
// `claude -p` (--permission-mode acceptEdits). The hooks that
// .claude/settings.json names find the script's `charter` on PATH. The script's
// CLAUDE_CODE_USE_POWERSHELL_TOOL and CLAUDE_CODE_SUBAGENT_MODEL are passed
// on, and
// $CLAUDE_PROMPT, when set, is the prompt. Stdout is the run's summary
// (claudetest.Result.Summary): a line for each tool call, "call main|
// subagent NAME INPUT ran|denied|error: RESULT", each message a hook
// showed the user, the result, and for each step marker the tools its
// subagent was offered: "offered MARKER: NAME, ...". Stderr is what claude wrote there.
func scriptClaude(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: claude SCRIPT.json [ARGS...]")
	}
	var script claudetest.Script
	if err := json.Unmarshal([]byte(os.Expand(ts.ReadFile(args[0]), ts.Getenv)), &script); err != nil {
		ts.Fatalf("%s: %v", args[0], err)
	}
	claude := claudetest.Binary()
	if claude == "" {
		ts.Fatalf("%s (guard the script with [!claude] skip)", claudetest.Missing())
	}
	sv, err := claudetest.NewServer(script)
	ts.Check(err)
	defer sv.Close()
	// Nothing of the test's own environment reaches claude but the
	// script's PATH and the CLAUDE_CODE_* variables the script set.
	env := []string{"PATH=" + ts.Getenv("PATH")}
	for _, name := range []string{"CLAUDE_CODE_USE_POWERSHELL_TOOL", "CLAUDE_CODE_SUBAGENT_MODEL"} {
		if v := ts.Getenv(name); v != "" {
			env = append(env, name+"="+v)
		}
	}
	if os.Geteuid() == 0 {
		// Claude Code refuses --permission-mode bypassPermissions to
		// root outside a sandbox; the test's temporary HOME is one.
		env = append(env, "IS_SANDBOX=1")
	}
	res, err := sv.Start(claude, claudetest.Run{
		Prompt:  ts.Getenv("CLAUDE_PROMPT"),
		Dir:     ts.MkAbs("."),
		Args:    args[1:],
		Env:     env,
		Timeout: 3 * time.Minute,
	})
	ts.Check(err)
	defer res.Close()
	ts.Stdout().Write([]byte(res.Summary()))
	// What each subagent was offered: the tools of the first request
	// whose system prompt or first message holds a step's marker
	// ("offered MARKER: Bash, Read"; nothing after the colon: no tool).
	offered := map[string]bool{}
	for _, st := range script.Steps {
		if st.When == "" || offered[st.When] {
			continue
		}
		offered[st.When] = true
		for _, rq := range sv.Requests() {
			if strings.Contains(rq.Key, st.When) {
				fmt.Fprintf(ts.Stdout(), "offered %s: %s\n", st.When, strings.Join(rq.Tools, ", "))
				break
			}
		}
	}
	ts.Stderr().Write([]byte(res.Stderr))
	if len(res.Events) == 0 {
		ts.Fatalf("claude printed no event: %v\n%s", res.Err, strings.TrimSpace(res.Stderr))
	}
}
