package bundle

import (
	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/render"
	"github.com/charter-dev/charter/rules"
)

// AgentProfile is ReadProfile for an agent of a compiled program rather
// than of a built bundle: the agent's flattened profile (the empty profile
// "none" when it has none) and its agent.json as build writes it, whose
// effective tools gate every call (see ReadGate).
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
