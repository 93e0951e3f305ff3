package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestHelpInDocs: docs/rules.md shows charter-hook --help as it is.
func TestHelpInDocs(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"--help"}, strings.NewReader(""), &stdout, &stderr); code != 0 || stderr.Len() != 0 {
		t.Fatalf("charter-hook --help: exit %d, stderr %q", code, stderr.String())
	}
	doc, err := os.ReadFile("../../docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(doc, []byte("$ charter-hook --help\n"+stdout.String()+"```\n")) {
		t.Errorf("docs/rules.md does not show charter-hook --help as it is; put this after \"$ charter-hook --help\":\n%s", stdout.String())
	}
}

// TestFailuresAnswer: whatever stops charter-hook before it judges the
// call is an answer on stdout with exit 0 (Claude Code runs a call on
// exit 1 and reads no answer on 2): a deny, or with --on-error allow a
// message and no decision.
func TestFailuresAnswer(t *testing.T) {
	in := `{"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": {}}`
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--agent", "a"}, `"permissionDecision":"deny","permissionDecisionReason":"charter could not judge this call, so it is denied: give --bundle DIR`},
		{[]string{"--bundle", "x", "--agent", "a", "--bundel", "y"}, `denied: unknown flag: --bundel (see 'charter-hook --help')`},
		{[]string{"--bundle", "x", "--agent", "a", "--on-error", "maybe"}, `denied: unknown on-error \"maybe\"; valid on-errors: deny, allow`},
		{[]string{"--bundle", "x", "--agent", "a", "--on-error=allow", "--nope"}, `{"systemMessage":"charter could not judge this call (unknown flag: --nope`},
		{[]string{"--bundle", "x", "--agent", "a", "--profile", "p"}, `denied: give exactly one of --agent ID and --profile NAME`},
		{[]string{"--bundle", t.TempDir(), "--agent", "a", "--state-dir", t.TempDir()}, `denied: no bundle at `},
	} {
		var stdout, stderr bytes.Buffer
		code := run(tc.args, strings.NewReader(in), &stdout, &stderr)
		if code != 0 || !strings.Contains(stdout.String(), tc.want) {
			t.Errorf("charter-hook %q: exit %d, stdout %q; want exit 0 and %q", tc.args, code, stdout.String(), tc.want)
		}
	}
}
