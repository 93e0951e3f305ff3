package bundle

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/artifact/bundlefile"
	"github.com/charter-dev/charter/internal/testkit/testrepo"
)

// agentJSON decodes an agent's agent.json from a built tree, as a runtime
// reads it.
func agentJSON(t *testing.T, tree bundlefile.Tree, id string, v any) {
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

// TestTypeDefaults: an agent type's model, tools, skills and behaviors
// reach its agents' agent.json, under the agent's own values.
func TestTypeDefaults(t *testing.T) {
	tree, err := Build(testrepo.Compile(t, testrepo.FS(map[string]string{"a.cue": `package charter
agentTypes: coder: {
	name: "Coder", system_prompt: "Code."
	model: {provider: "p", model_id: "m-small", model_tier: "small"}
	tools: {access_level: "restricted", allowed: ["read_file", "create_file"], denied: ["run_bash"]}
	skills: primary: [{id: "python", name: "Python", proficiency: 0.5}]
	behaviors: [{type: "WorkspaceFilesBehavior"}, {type: "LoopDetectionBehavior"}]
}
agents: ann: {name: "Ann", type: "coder"}
agents: bob: {
	name: "Bob", type: "coder"
	model: {provider: "p", model_id: "m-large"}
	tools: {allowed: ["read_file"], denied: ["delete_file"]}
	skills: secondary: [{id: "python", name: "Python", proficiency: 0.9}]
	behaviors: [{type: "LoopDetectionBehavior", params: max_repeats: 2}]
}
`})), Options{CharterVersion: "test", CUEVersion: "v0"})
	if err != nil {
		t.Fatal(err)
	}
	type doc struct {
		Model struct {
			ModelID string `json:"model_id"`
		}
		Tools struct {
			AccessLevel string `json:"access_level"`
			Allowed     []string
			Denied      []string
		}
		Skills struct {
			Primary, Secondary []struct {
				ID          string
				Proficiency float64
			}
		}
		Behaviors []struct {
			Type   string
			Params map[string]any
		}
		ProvidedTools []struct{ Name string } `json:"provided_tools"`
	}
	var ann, bob doc
	agentJSON(t, tree, "ann", &ann)
	agentJSON(t, tree, "bob", &bob)
	if ann.Model.ModelID != "m-small" || bob.Model.ModelID != "m-large" {
		t.Errorf("model ids %q, %q; want m-small (the type's), m-large (the agent's)", ann.Model.ModelID, bob.Model.ModelID)
	}
	if diff := cmp.Diff([]string{"run_bash", "delete_file"}, bob.Tools.Denied); diff != "" {
		t.Errorf("bob's denied tools add to the type's (-want +got):\n%s", diff)
	}
	if ann.Tools.AccessLevel != "restricted" || bob.Tools.AccessLevel != "restricted" || len(bob.Tools.Allowed) != 1 {
		t.Errorf("tools: ann %+v, bob %+v", ann.Tools, bob.Tools)
	}
	if len(ann.Skills.Primary) != 1 || len(bob.Skills.Primary) != 0 || len(bob.Skills.Secondary) != 1 || bob.Skills.Secondary[0].Proficiency != 0.9 {
		t.Errorf("skills: ann %+v, bob %+v (bob's own python replaces the type's)", ann.Skills, bob.Skills)
	}
	var types []string
	for _, b := range bob.Behaviors {
		types = append(types, b.Type)
	}
	if diff := cmp.Diff([]string{"LoopDetectionBehavior", "WorkspaceFilesBehavior"}, types); diff != "" {
		t.Errorf("bob's behaviors: his own, then the type's he lacks (-want +got):\n%s", diff)
	}
	if bob.Behaviors[0].Params["max_repeats"] != 2.0 {
		t.Errorf("bob's LoopDetectionBehavior params %v, want his max_repeats 2", bob.Behaviors[0].Params)
	}
	if len(ann.ProvidedTools) != 4 {
		t.Errorf("ann's provided tools %v, want the 4 of WorkspaceFilesBehavior", ann.ProvidedTools)
	}
}
