package bundle

import (
	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/artifact/a2a"
	"github.com/charter-dev/charter/render"
	"github.com/charter-dev/charter/rules"
)

// AgentProfile is bundlefile.Runtime.Agent for an agent of a compiled
// program rather than of a built bundle: the agent's flattened profile
// (the empty profile "none" when it has none) and its agent.json as build
// writes it, whose effective tools gate every call (see ReadGate).
func AgentProfile(prog *compiler.Program, a *compiler.Agent) (rules.Profile, []byte, error) {
	prompt, err := render.Render(prog, a)
	if err != nil {
		return rules.Profile{}, nil, err
	}
	b, err := AgentFile(prompt.String(), a)
	if err != nil {
		return rules.Profile{}, nil, err
	}
	if a.Profile == nil {
		return rules.Profile{Name: "none"}, b, nil
	}
	return *a.Profile, b, nil
}

// AgentCard returns agent a's Agent Card as build writes it (unsigned),
// prompt being a's rendered system prompt.
func AgentCard(prog *compiler.Program, a *compiler.Agent, prompt string) (*a2a.Card, error) {
	hash, err := ContentHash(a, prompt)
	if err != nil {
		return nil, err
	}
	return Card(prog, a, hash), nil
}
