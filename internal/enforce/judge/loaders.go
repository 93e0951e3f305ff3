package judge

import (
	"errors"
	"fmt"
	"slices"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/rules"
)

// Bundle is a Loader over a built bundle, every file it reads checked
// against the bundle's manifest.json.
type Bundle struct{ R *bundle.Runtime }

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
			return nil, &bundle.NotInBundleError{Kind: "agent", Name: id, Dir: b.R.Dir(), Err: errors.New(bundle.DelegationFile + " lists no agent " + id)}
		}
		return ds, nil
	}
	doc, err := b.R.AgentJSON(id)
	if err != nil {
		return nil, err
	}
	return rules.ReadDelegates(doc)
}

// UnknownError is an agent or a profile a program does not have.
type UnknownError struct {
	Kind  string // "agent" or "profile"
	Name  string
	Known []string
}

func (e *UnknownError) Error() string {
	return fmt.Sprintf("no %s %q", e.Kind, e.Name)
}

// Program is a Loader over a repository built in memory.
type Program struct{ P *compiler.Program }

// Load implements Loader.
func (l Program) Load(agent, profile string) (rules.Profile, []byte, error) {
	prog := l.P
	if agent == "" {
		p, ok := prog.Profiles[profile]
		if !ok {
			names := make([]string, 0, len(prog.Profiles))
			for n := range prog.Profiles {
				names = append(names, n)
			}
			slices.Sort(names)
			return rules.Profile{}, nil, &UnknownError{Kind: "profile", Name: profile, Known: names}
		}
		return *p, nil, nil
	}
	i := slices.IndexFunc(prog.Agents, func(a *compiler.Agent) bool { return a.ID == agent })
	if i < 0 {
		ids := make([]string, len(prog.Agents))
		for k, a := range prog.Agents {
			ids[k] = a.ID
		}
		return rules.Profile{}, nil, &UnknownError{Kind: "agent", Name: agent, Known: ids}
	}
	return bundle.AgentProfile(prog, prog.Agents[i])
}

// HasAgent implements Loader.
func (l Program) HasAgent(id string) bool {
	return slices.ContainsFunc(l.P.Agents, func(a *compiler.Agent) bool { return a.ID == id })
}

// AgentIDs implements Loader.
func (l Program) AgentIDs() []string {
	ids := make([]string, len(l.P.Agents))
	for i, a := range l.P.Agents {
		ids[i] = a.ID
	}
	return ids
}

// Delegates implements Loader.
func (l Program) Delegates(id string) ([]string, error) {
	i := slices.IndexFunc(l.P.Agents, func(a *compiler.Agent) bool { return a.ID == id })
	if i < 0 {
		return nil, &UnknownError{Kind: "agent", Name: id, Known: l.AgentIDs()}
	}
	return l.P.Agents[i].Delegates, nil
}
