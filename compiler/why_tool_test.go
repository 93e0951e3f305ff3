package compiler_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/testkit/testrepo"
)

func TestWhyTool(t *testing.T) {
	src := `package charter
agentTypes: t: {name: "T", system_prompt: "I am {agent.name}."}
agents: ann: {name: "Ann", type: "t", behaviors: [{type: "FileToolsBehavior"}], tools: {denied: ["write_file"]}}
`
	prog := testrepo.Compile(t, testrepo.FS(map[string]string{"a.cue": src}))
	var ann *compiler.Agent
	for _, a := range prog.Agents {
		if a.ID == "ann" {
			ann = a
		}
	}
	read, err := prog.WhyTool(ann, "read_file")
	if err != nil || !read.Callable || read.Behavior != "FileToolsBehavior" || read.ProvidedAt.Line == 0 {
		t.Errorf("read_file: %+v, %v; want callable, provided by FileToolsBehavior at a line", read, err)
	}
	write, err := prog.WhyTool(ann, "write_file")
	if err != nil || write.Callable || write.Exclusion.By != "tools.denied" {
		t.Errorf("write_file: %+v, %v; want removed by tools.denied", write, err)
	}
	// A tool another behavior type provides: an answer, naming it.
	bash, err := prog.WhyTool(ann, "run_bash")
	if err != nil || bash.Callable || !bash.NotProvided || !strings.Contains(bash.Exclusion.Reason, "(CommandToolsBehavior)") {
		t.Errorf("run_bash: %+v, %v; want not provided, naming CommandToolsBehavior", bash, err)
	}
	_, err = prog.WhyTool(ann, "run_bsh")
	var nt *compiler.NoToolError
	if !errors.As(err, &nt) {
		t.Fatalf("run_bsh: error %v, want a NoToolError", err)
	}
	if d := cmp.Diff([]string{"list_dir", "read_file", "write_file"}, nt.Tools); d != "" {
		t.Errorf("tools (-want +got):\n%s", d)
	}
}
