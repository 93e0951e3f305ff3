package flow_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/artifact/flow"
	"github.com/charter-dev/charter/internal/config/model"
)

// TestMissing: a need counts as provided only when every path to the step
// provides it; a loop back does not make up for the first pass.
func TestMissing(t *testing.T) {
	out := func(keys ...string) map[string]any {
		props := map[string]any{}
		for _, k := range keys {
			props[k] = map[string]any{"type": "string"}
		}
		req := []any{}
		for _, k := range keys {
			req = append(req, k)
		}
		return map[string]any{"type": "object", "properties": props, "required": req}
	}
	cfg := &model.Config{
		AgentTypes: map[string]*model.AgentType{
			"t":    {Variables: map[string]*model.Variable{"x": {Required: true}, "y": {Required: true}, "z": {}}},
			"free": {},
		},
		Agents: map[string]*model.Agent{
			"a": {Type: "free", Output: out("x")},
			"b": {Type: "free", Output: out("y")},
			"c": {Type: "t"},
		},
		Flows: map[string]*model.Flow{"f": {Inputs: []string{"w"}, Steps: []model.FlowStep{
			{Name: "start", Agent: "a", Next: []model.FlowNext{{Step: "side"}, {Step: "use"}}},
			{Name: "side", Agent: "b", Next: []model.FlowNext{{Step: "use"}}},
			{Name: "use", Agent: "c", Next: []model.FlowNext{{Step: "side"}}},
			{Name: "lost", Agent: "c"},
		}}},
	}
	f := flow.Resolve(cfg, "f")
	type row struct {
		Needs, Missing []string
		Reachable      bool
	}
	var got []row
	for _, s := range f.Steps {
		got = append(got, row{s.Needs, s.Missing, s.Reachable})
	}
	want := []row{
		{[]string{}, nil, true},
		{[]string{}, nil, true},
		{[]string{"x", "y"}, []string{"y"}, true}, // start -> use skips side, which passes y
		{[]string{"x", "y"}, nil, false},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("steps (-want +got):\n%s", diff)
	}
}
