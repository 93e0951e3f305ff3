package render

import (
	"strings"
	"testing"

	"cuelang.org/go/cue"

	"github.com/charter-dev/charter/internal/testkit/testrepo"
)

// TestEveryAutonomyOptionHasAText holds autonomyTexts to #Agent: every
// option but null writes a line.
func TestEveryAutonomyOptionHasAText(t *testing.T) {
	repo, _ := testrepo.Load(t, testrepo.FS(map[string]string{"a.cue": "package charter\n"}))
	def := repo.Schema.Def("#Agent")
	for field := range autonomyTexts {
		v := def.LookupPath(cue.MakePath(cue.Str(field).Optional()))
		op, options := v.Expr()
		if op != cue.OrOp {
			t.Fatalf("%s is not a choice of options", field)
		}
		n := 0
		for _, o := range options {
			if o.IsNull() {
				continue
			}
			n++
			s, _ := o.String()
			if autonomyTexts[field][s] == "" {
				t.Errorf("%s: %q has no text", field, s)
			}
		}
		if len(autonomyTexts[field]) != n {
			t.Errorf("%s: %d texts for %d options", field, len(autonomyTexts[field]), n)
		}
	}
}

// TestAutonomySection: autonomy_level and strategic_output_mode reach the
// prompt; null writes nothing.
func TestAutonomySection(t *testing.T) {
	prog := testrepo.Compile(t, testrepo.FS(map[string]string{"a.cue": `package charter
agents: ann: {name: "Ann", type: "personal_assistant", autonomy_level: "semi", strategic_output_mode: "advisor"}
agents: bob: {name: "Bob", type: "personal_assistant", autonomy_level: null, strategic_output_mode: null}
`}))
	ann, err := Render(prog, prog.Agents[0])
	if err != nil {
		t.Fatal(err)
	}
	want := "AUTONOMY:\n" + autonomyTexts["autonomy_level"]["semi"] + "\n" + autonomyTexts["strategic_output_mode"]["advisor"] + "\n"
	if !strings.Contains(ann.String(), want) {
		t.Errorf("ann's prompt lacks\n%s\n---\n%s", want, ann)
	}
	bob, err := Render(prog, prog.Agents[1])
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(bob.String(), "AUTONOMY") {
		t.Errorf("null wrote an AUTONOMY section:\n%s", bob)
	}
}
