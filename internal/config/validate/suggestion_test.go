package validate_test

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/config/validate"
)

// TestSuggestion checks that a "did you mean" carries the name as data
// (diag.Diagnostic.Suggestion), for editors to offer as a fix, at the
// position of the name it replaces.
func TestSuggestion(t *testing.T) {
	type got struct {
		Rule, Suggestion string
		Line, Column     int
	}
	tests := []struct {
		name   string
		fields string
		want   []got
	}{
		{"option", "\tbehavior: communication: formatting: \"plane\"", []got{{"unknown-option", "plain", 6, 39}}},
		{"field", "\tpersonality: colaboration: \"pair\"", []got{{"unknown-field", "collaboration", 6, 15}}},
		{"category", "\tbehavior: comunication: formatting: \"plain\"", []got{{"unknown-category", "communication", 6, 12}}},
		{"setting", "\tbehavior: communication: formating: \"plain\"", []got{{"unknown-setting", "formatting", 6, 27}}},
		{"reference", "\tpresets: [\"quite\"]", []got{{"reference", "quiet", 6, 12}}},
		{"nothing close", "\tbehavior: communication: formatting: \"zzzzzz\"", []got{{"unknown-option", "", 6, 39}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for p, src := range agent(base + tt.fields) {
				fsys[p] = &fstest.MapFile{Data: []byte(src)}
			}
			repo, _, err := load.Load(fsys, "repo")
			if err != nil {
				t.Fatal(err)
			}
			var out []got
			for _, d := range validate.Run(repo).Diagnostics {
				out = append(out, got{d.Rule, d.Suggestion, d.Line, d.Column})
			}
			if diff := cmp.Diff(tt.want, out); diff != "" {
				t.Errorf("(-want +got)\n%s\n%v", diff, validate.Run(repo).Diagnostics)
			}
		})
	}
}
