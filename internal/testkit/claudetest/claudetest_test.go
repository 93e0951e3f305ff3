package claudetest_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/charter-dev/charter/internal/testkit/claudetest"
	"github.com/charter-dev/charter/internal/testkit/npmtools"
	"github.com/charter-dev/charter/internal/testkit/realtool"
	"github.com/charter-dev/charter/internal/testkit/testrepo"
)

// TestRuntimeTableComplete: the standard library's Claude Code table maps
// every tool name of the pinned SDK (BUILTIN_TOOL_NAMES, and every old name
// of LEGACY_TOOL_NAME_ALIASES to the tool its new name maps to); a pinned
// upgrade that adds a tool fails here until the table names it, since a
// name the table does not map is denied for every agent.
func TestRuntimeTableComplete(t *testing.T) {
	builtin, legacy, err := claudetest.ToolNames()
	if err != nil {
		realtool.Missing(t, npmtools.Missing("@anthropic-ai/claude-agent-sdk")+": "+err.Error())
	}
	prog := testrepo.Compile(t, testrepo.FS(map[string]string{"a.cue": "package charter\n"}))
	table := prog.Config.Runtimes["claude-code"].Tools
	for _, name := range builtin {
		if _, ok := table[name]; !ok {
			t.Errorf("Claude Code %s has the tool %s, which cue/stdlib/runtimes.cue does not map: every call of it is denied; map it to the charter tool it is", claudetest.Version, name)
		}
	}
	for old, now := range legacy {
		switch {
		case table[old] == "":
			t.Errorf("Claude Code %s still takes the legacy name %s (for %s), which cue/stdlib/runtimes.cue does not map", claudetest.Version, old, now)
		case table[now] != "" && table[old] != table[now]:
			t.Errorf("runtimes.cue maps the legacy name %s to %s, and its current name %s to %s", old, table[old], now, table[now])
		}
	}
	// And nothing Claude Code no longer has.
	for _, gone := range []string{"LS", "MultiEdit", "BashOutput", "NotebookRead"} {
		if _, ok := table[gone]; ok {
			t.Errorf("runtimes.cue maps %s, which Claude Code %s no longer has", gone, claudetest.Version)
		}
	}
	for name := range table {
		if !slices.Contains(builtin, name) {
			if _, ok := legacy[name]; !ok {
				t.Errorf("runtimes.cue maps %s, which is neither a built-in tool nor a legacy name of Claude Code %s", name, claudetest.Version)
			}
		}
	}
}

// TestScriptedRun: the real binary runs offline against the scripted
// model, and the run's calls read back.
func TestScriptedRun(t *testing.T) {
	realtool.Long(t, "starts the real Claude Code")
	sv, err := claudetest.NewServer(claudetest.Script{Steps: []claudetest.Step{
		{Text: "Listing.", ToolUse: []claudetest.ToolUse{{Name: "Bash", Input: map[string]any{"command": "echo scripted-hello", "description": "say hello"}}}},
		{Text: "All done."},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer sv.Close()
	res := sv.RunT(t, claudetest.Run{Args: []string{"--permission-mode", "acceptEdits"}})
	calls := res.Calls()
	if len(calls) != 1 || calls[0].Name != "Bash" || !strings.Contains(calls[0].Result, "scripted-hello") {
		t.Fatalf("calls: %+v\n%s\n%s", calls, res.Summary(), res.Stderr)
	}
	if !strings.Contains(res.Summary(), "result: success") {
		t.Errorf("summary:\n%s", res.Summary())
	}
}
