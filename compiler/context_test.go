package compiler_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/testkit/testrepo"
)

// TestInjectionParams: a context block gets the agent's parameter values
// at build time; runtime values stay placeholders.
func TestInjectionParams(t *testing.T) {
	prog := testrepo.Compile(t, testrepo.FS(map[string]string{
		"a.cue": `package charter
behaviorTypes: Watch: {
	kind: "utility"
	params: {limit: {type: "int", default: 5}, cmds: {type: "list", default: ["a"]}}
	context: [{name: "w", role: "system", at: "start", content: "Warn after {limit} ({cmds}) at {now}.", values: now: "time"}]
}
agents: a: {name: "A", type: "personal_assistant", behaviors: [{type: "Watch", params: {limit: 2, cmds: ["python", "pip"]}}]}
`,
	}))
	got := prog.Agents[0].Behaviors[0].Context
	want := []compiler.Injection{{Name: "w", Role: "system", At: "start", When: "every_call",
		Content: "Warn after 2 (python, pip) at {now}.", Values: map[string]string{"now": "time"}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("context (-want +got):\n%s", diff)
	}
}
