package bundle

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// agentJSON decodes an agent's agent.json from a built tree, as a runtime
// reads it.
func agentJSON(t *testing.T, tree Tree, id string, v any) {
	t.Helper()
	if err := json.Unmarshal(tree["agents/"+id+"/agent.json"], v); err != nil {
		t.Fatalf("agents/%s/agent.json: %v", id, err)
	}
}

// TestBehaviorEventsAndContext: a runtime wires each behavior's event
// handlers and context blocks from agent.json, in the behaviors' order,
// with the agent's parameter values filled into the blocks.
func TestBehaviorEventsAndContext(t *testing.T) {
	type block struct {
		Name, Role, At, When, Content string
	}
	type behavior struct {
		Type    string
		Events  []string
		Context []block
	}
	var doc struct{ Behaviors []behavior }
	agentJSON(t, build(t), "ann", &doc)
	want := []behavior{
		{Type: "FileToolsBehavior"},
		{Type: "LoopDetectionBehavior", Events: []string{"on_tool_call"}, Context: []block{{
			Name: "loop_warning", Role: "user", At: "end", When: "loop_detected",
			Content: "⚠️  LOOP DETECTION WARNING:\nYou appear to be repeating actions:\n{repeated_actions}\n\nConsider trying a different approach.",
		}}},
	}
	if diff := cmp.Diff(want, doc.Behaviors); diff != "" {
		t.Errorf("behaviors in agent.json (-want +got):\n%s", diff)
	}
}
