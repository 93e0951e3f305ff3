package a2a

import (
	"bytes"
	"encoding/json"
	"testing"

	a2av03 "github.com/a2aproject/a2a-go/a2a"

	"github.com/charter-dev/charter/internal/config/model"
)

// TestV03StrictDecode decodes the v0.3 card with a2a-go v0.3's own
// AgentCard type, rejecting any field that type does not know, as strict
// v0.3 readers do.
func TestV03StrictDecode(t *testing.T) {
	agent := &model.Agent{Name: "Ann", Role: "Support", Skills: model.SkillSet{
		Primary:   []model.Skill{{ID: "billing", Name: "Billing", Tags: []string{"refunds"}, Examples: []string{"refund my order"}}},
		Secondary: []model.Skill{{ID: "triage", Name: "Triage", Description: "Sort tickets"}},
	}}
	settings := model.A2ASettings{URL: "https://agents.example.com", Provider: &model.A2AProvider{Organization: "Example", URL: "https://example.com"}}
	card := NewCard("ann", agent, settings, "1.2.0")
	card.Capabilities.ExtendedAgentCard = true
	b, err := json.Marshal(card.V03())
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var got a2av03.AgentCard
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("a2a-go v0.3 rejects the v0.3 card: %v\n%s", err, b)
	}
	if got.ProtocolVersion != "0.3.0" || got.URL != "https://agents.example.com/ann" || got.PreferredTransport != a2av03.TransportProtocolJSONRPC {
		t.Errorf("decoded %+v", got)
	}
	if !got.SupportsAuthenticatedExtendedCard {
		t.Errorf("extendedAgentCard was not carried over as supportsAuthenticatedExtendedCard")
	}
	if len(got.Skills) != 2 || got.Skills[0].Tags[0] != "refunds" || got.Skills[1].Description != "Sort tickets" {
		t.Errorf("skills: %+v", got.Skills)
	}
}
