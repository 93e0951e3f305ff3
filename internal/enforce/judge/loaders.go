package judge

import (
	"errors"

	"github.com/charter-dev/charter/internal/artifact/bundlefile"
	"github.com/charter-dev/charter/rules"
)

// Bundle is a Loader over a built bundle, every file it reads checked
// against the bundle's manifest.json.
type Bundle struct{ R *bundlefile.Runtime }

// Load implements Loader.
func (b Bundle) Load(agent, profile string) (rules.Profile, []byte, error) {
	if agent == "" {
		p, err := b.R.Profile(profile)
		return p, nil, err
	}
	return b.R.Agent(agent)
}

// HasAgent implements Loader.
func (b Bundle) HasAgent(id string) bool { return b.R.HasAgent(id) }

// AgentIDs implements Loader.
func (b Bundle) AgentIDs() []string { return b.R.AgentIDs() }

// Delegates implements Loader: from the bundle's delegation.json, read
// and checked against the manifest once, or, in a bundle an older charter
// built without it, from the agent's agent.json.
func (b Bundle) Delegates(id string) ([]string, error) {
	graph, ok, err := b.R.Delegation()
	if err != nil {
		return nil, err
	}
	if ok {
		ds, listed := graph[id]
		if !listed {
			return nil, &bundlefile.NotInBundleError{Kind: "agent", Name: id, Dir: b.R.Dir(), Err: errors.New(bundlefile.DelegationFile + " lists no agent " + id)}
		}
		return ds, nil
	}
	doc, err := b.R.AgentJSON(id)
	if err != nil {
		return nil, err
	}
	return rules.ReadDelegates(doc)
}
