package bundle

import (
	"bytes"
	"testing"

	"github.com/charter-dev/charter/internal/canonjson"
	"github.com/charter-dev/charter/internal/testkit/testrepo"
	"github.com/charter-dev/charter/render"
)

// TestAgentProfileAndCard: what eval and export compute of one agent is
// what build writes of it.
func TestAgentProfileAndCard(t *testing.T) {
	prog := testrepo.Compile(t, testrepo.FS(repo))
	tree, err := Build(prog, Options{CharterVersion: "test", CUEVersion: "v0"})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range prog.Agents {
		p, agentJSON, err := AgentProfile(prog, a)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(agentJSON, tree["agents/"+a.ID+"/agent.json"]) {
			t.Errorf("%s: AgentProfile's agent.json differs from build's:\n%s\nbuild:\n%s", a.ID, agentJSON, tree["agents/"+a.ID+"/agent.json"])
		}
		if want := "none"; a.Profile == nil && p.Name != want {
			t.Errorf("%s: profile %q, want %q", a.ID, p.Name, want)
		}
		prompt, err := render.Render(prog, a)
		if err != nil {
			t.Fatal(err)
		}
		card, err := AgentCard(prog, a, prompt.String())
		if err != nil {
			t.Fatal(err)
		}
		b, err := canonjson.Canonical(card)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, tree["agents/"+a.ID+"/card.json"]) {
			t.Errorf("%s: AgentCard differs from build's card.json", a.ID)
		}
	}
}
