package diag

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// checkGolden compares got with testdata/name, or rewrites the file with
// -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./diag -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got); if the change is intended, run go test ./diag -update:\n%s", path, diff)
	}
}

// render calls one writer into a buffer and fails the test on an error.
func render(t *testing.T, write func(*bytes.Buffer) error) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// The findings of one lint run, shared by the golden tests. They cover a
// finding of each severity, several findings of one rule, a rule with no
// findings, a rule that is not in the registry, a finding with no rule, one
// with no file, one with no line, and text that every format must escape:
// newlines, %, :, ',', XML and HTML specials, a space in a file name.
var (
	lintRules = []RuleInfo{
		{
			ID: "tool-conflict", Severity: Error,
			Summary: "A tool is both allowed and denied.",
			Doc: "An agent's tools.allowed and tools.denied name the same tool; " +
				"denied wins, so the allow is dead and probably a mistake.\n\n" +
				"Bad:\n\n    tools: {allowed: [\"bash\"], denied: [\"bash\"]}\n\n" +
				"Good:\n\n    tools: {allowed: [\"read\"], denied: [\"bash\"]}\n",
		},
		{
			ID: "unknown-placeholder", Severity: Error,
			Summary: "A template uses a placeholder no variable declares.",
			Doc:     "Every {name} in a systemPrompt must be a declared variable.\n\nBad: `Hello {user_nme}`\n\nGood: `Hello {user_name}`",
		},
		{
			ID: "prompt-budget", Severity: Warning,
			Summary: "A compiled prompt is over its model's token budget.",
			Doc:     "The prompt is longer than the model's budget & gets cut <sometimes>.",
		},
		{
			ID: "secret-literal", Severity: Error,
			Summary: "A credential-like field holds a literal.",
			Doc:     "Read secrets from the environment at run time.",
		},
		{
			ID: "unreachable-option", Severity: Info,
			Summary: "No agent can reach this option.",
			Doc:     "An option that no type, preset or agent selects.",
		},
	}
	lintDiagnostics = []Diagnostic{
		{Severity: Error, Message: "no cue.mod/module.cue under the config root"},
		{
			File: "agents/sarah.cue", Line: 12, Column: 20, Severity: Error, Rule: "tool-conflict",
			Message: `tool "bash" is both allowed and denied`, Path: "agents.sarah.tools",
		},
		{
			File: "agents/sarah.cue", Line: 14, Column: 3, Severity: Warning, Rule: "prompt-budget",
			Message: "prompt is 9,120 tokens: 14% over the budget of model: haiku <8k> & co",
			Path:    "agents.sarah",
		},
		{
			File: "agents/sarah.cue", Line: 30, Column: 5, Severity: Error, Rule: "unknown-placeholder",
			Message: "placeholder {user_nme} is declared nowhere\nhint: did you mean {user_name}?",
			Path:    "agentTypes.assistant.systemPrompt",
		},
		{
			File: "agents/tom.cue", Line: 7, Column: 9, Severity: Error, Rule: "tool-conflict",
			Message: `tool "write" is both allowed and denied`, Path: "agents.tom.tools",
		},
		{
			File: "odd dir, v2: 100%/x.cue", Line: 2, Column: 1, Severity: Warning, Rule: "schema",
			Message: "field not allowed: modle (did you mean model?)", Path: "agents.x.modle",
		},
		{
			File: "types/coder.cue", Severity: Info, Rule: "unreachable-option",
			Message: "option verbose of communication.style is never selected",
			Path:    "categories.communication.settings.style.options.verbose",
		},
	}
	lintTool = ToolInfo{
		Version:     "1.4.0",
		HelpURIBase: "https://charter.dev/docs/rules/",
		RootURI:     "file:///home/ci/repo",
	}
)
