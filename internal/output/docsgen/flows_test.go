package docsgen_test

import (
	"strings"
	"testing"

	"github.com/charter-dev/charter/internal/output/docsgen"
)

// TestFlows: a repository with flows gets flows.md, linked from the index,
// with every step's agent, needs, passes and transitions.
func TestFlows(t *testing.T) {
	out := docsgen.Generate(program(t, "../../../examples/dev-team"))
	flows := string(out["flows.md"])
	for _, want := range []string{
		"## dev",
		"| `plan` | [priya](agents/priya.md) | once | `language`, `task_description` | `plan` | `code` |",
		"| `test` | [tess](agents/tess.md) | every_time | `files_created`, `workspace` | `test_results` | `reflect` if `test_results.status` = \"failed\" |",
	} {
		if !strings.Contains(flows, want) {
			t.Errorf("flows.md lacks %q:\n%s", want, flows)
		}
	}
	if !strings.Contains(string(out["index.md"]), "[Flows](flows.md)") {
		t.Errorf("index.md does not link flows.md")
	}
	if _, ok := docsgen.Generate(program(t, "../../editor/schema/testdata/full"))["flows.md"]; ok {
		t.Errorf("a repository without flows got flows.md")
	}
}
