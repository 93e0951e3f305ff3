package render

import (
	"testing"

	"cuelang.org/go/cue"

	"github.com/charter-dev/charter/internal/testkit/testrepo"
)

// TestEveryPersonalityOptionHasALabel holds labels to the schema: an
// option the schema allows but labels lacks would write an empty line
// under PERSONALITY.
func TestEveryPersonalityOptionHasALabel(t *testing.T) {
	repo, _ := testrepo.Load(t, testrepo.FS(map[string]string{"a.cue": "package charter\n"}))
	def := repo.Schema.Def("#Personality")
	for field := range labels {
		v := def.LookupPath(cue.MakePath(cue.Str(field).Optional()))
		if !v.Exists() {
			t.Errorf("#Personality has no field %s", field)
			continue
		}
		op, options := v.Expr()
		if op != cue.OrOp {
			t.Fatalf("%s is not a choice of options", field)
		}
		for _, o := range options {
			s, err := o.String()
			if err != nil {
				t.Fatalf("%s: an option that is not a string: %v", field, err)
			}
			if labels[field][s] == "" {
				t.Errorf("personality.%s: %q has no label", field, s)
			}
		}
		if len(labels[field]) != len(options) {
			t.Errorf("personality.%s: %d labels for %d options", field, len(labels[field]), len(options))
		}
	}
}
