package docsgen_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charter-dev/charter/internal/testkit/testrepo"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/output/docsgen"
	"github.com/charter-dev/charter/internal/repo/source"
)

func program(t *testing.T, dir string) *compiler.Program {
	t.Helper()
	fsys, err := source.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return testrepo.Compile(t, fsys)
}

// TestGenerate checks that the reference is deterministic and names every
// declaration, with what a reader needs to see (the fixture exercises
// every kind of declaration).
func TestGenerate(t *testing.T) {
	const dir = "../../editor/schema/testdata/full"
	a, b := docsgen.Generate(program(t, dir)), docsgen.Generate(program(t, dir))
	for p := range a {
		if !bytes.Equal(a[p], b[p]) {
			t.Errorf("%s differs between runs", p)
		}
		if !bytes.HasPrefix(a[p], []byte(docsgen.Marker+"\n")) {
			t.Errorf("%s lacks the marker", p)
		}
	}
	want := map[string][]string{
		"categories.md":  {"## escalation", "### escalation.max_attempts", "A number from 1 to 5.", "One of 5, 10, 30.", "| `never` |  | (no line) | Never escalate. | use late |"},
		"agent-types.md": {"## helper", "- presets: `calm`", "| `locale` | no | The user's locale. | en-GB |", "## preset calm"},
		"profiles.md":    {"## support", "- extends: assistant → dev", "| `confirm_bulk_email` |", "| no |", "changed by `support`", "Classifier: frequency `first_turn`"},
		"behaviors.md":   {"## TicketBehavior", "| `queue` | string | `\"support\"` | Ticket queue. |", "### tool open_ticket", "| `title` | string | yes |  |", "Destructive: it deletes or overwrites."},
		"agents/hal.md":  {"| `escalation.wait_minutes` | `30` |  | the agent's own override (agents/hal.cue:", "| `escalation.threshold` | `late` | Try twice before handing over | preset calm of the agent type (decls.cue:", "- tools denied: `delete_ticket`", "| `delete_ticket` | TicketBehavior | yes | no: tools.denied names delete_ticket | Delete a ticket. |", "| pii | 1 day |"},
	}
	for p, subs := range want {
		for _, s := range subs {
			if !strings.Contains(string(a[p]), s) {
				t.Errorf("%s lacks %q", p, s)
			}
		}
	}
}
