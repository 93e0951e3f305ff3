package history

import (
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		name, src  string
		agentsOnly bool
		ids        []string
	}{
		{"one agent", "agents: ann: {name: \"Ann\"}\n", true, []string{"ann"}},
		{"comments everywhere", "// Ann.\npackage charter\n\n// the agent\nagents: {\n\t// first\n\tann: {name: \"Ann\"} // trailing\n\t// bob\n\tbob: name: \"Bob\"\n}\n// end\n", true, []string{"ann", "bob"}},
		{"beside a preset", "agents: ann: {}\npresets: calm: {}\n", false, nil},
		{"a pattern", "agents: [string]: {}\n", false, nil},
		{"a syntax error", "agents: ann: {\n", false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := classify("a.cue", []byte(tt.src))
			if c.agentsOnly != tt.agentsOnly {
				t.Errorf("agentsOnly = %v, want %v", c.agentsOnly, tt.agentsOnly)
			}
			if d := cmp.Diff(tt.ids, slices.Sorted(maps.Keys(c.ids))); tt.agentsOnly && d != "" {
				t.Errorf("ids (-want +got):\n%s", d)
			}
		})
	}
}

func TestMentions(t *testing.T) {
	src := `agents: a3: {
	name:  "A3"
	model: agents.a0.model
	authority: reports_to: "a1"
	notes: """
		a2
		"""
	tools: agents["a4"].tools
}
`
	got := slices.Sorted(maps.Keys(mentions("a.cue", []byte(src))))
	want := []string{"A3", "a0", "a1", "a3", "a4", "agents", "authority", "model", "name", "notes", "reports_to", "tools"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("mentions (-want +got):\n%s", d)
	}
}
