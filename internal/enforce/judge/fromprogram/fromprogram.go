// Package fromprogram is judge's Loader over a repository compiled in
// memory, for charter eval without --bundle. It is apart from judge
// because it links the compiler (and so CUE): the Claude Code hook on a
// built bundle (cmd/charter-hook) links judge without it.
package fromprogram

import (
	"fmt"
	"slices"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/rules"
)

// UnknownError is an agent or a profile a program does not have.
type UnknownError struct {
	Kind  string // "agent" or "profile"
	Name  string
	Known []string
}

func (e *UnknownError) Error() string {
	return fmt.Sprintf("no %s %q", e.Kind, e.Name)
}

// Loader is a judge.Loader over a repository built in memory.
type Loader struct{ P *compiler.Program }

// Load implements judge.Loader.
func (l Loader) Load(agent, profile string) (rules.Profile, []byte, error) {
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

// HasAgent implements judge.Loader.
func (l Loader) HasAgent(id string) bool {
	return slices.ContainsFunc(l.P.Agents, func(a *compiler.Agent) bool { return a.ID == id })
}

// AgentIDs implements judge.Loader.
func (l Loader) AgentIDs() []string {
	ids := make([]string, len(l.P.Agents))
	for i, a := range l.P.Agents {
		ids[i] = a.ID
	}
	return ids
}

// Delegates implements judge.Loader.
func (l Loader) Delegates(id string) ([]string, error) {
	i := slices.IndexFunc(l.P.Agents, func(a *compiler.Agent) bool { return a.ID == id })
	if i < 0 {
		return nil, &UnknownError{Kind: "agent", Name: id, Known: l.AgentIDs()}
	}
	return l.P.Agents[i].Delegates, nil
}
