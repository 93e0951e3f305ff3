package lint

import (
	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/config/model"
)

// AgentFacts is what the rules of Global read of one agent: enough to
// stand in for an agent that an incremental evaluation left out
// (internal/config/incremental), and small enough to keep on disk. A rule
// added to Global reads nothing else of an agent, or adds it here (a test
// holds the stand-ins' findings equal to the agents').
type AgentFacts struct {
	ID        string
	Type      string
	Presets   []string
	Behavior  model.Behavior
	Behaviors int    // how many behaviors it declares
	Profile   string // its flattened profile's name, "" for none
	Tools     []string
}

// FactsOf returns what the rules of Global read of a.
func FactsOf(a *compiler.Agent) AgentFacts {
	f := AgentFacts{ID: a.ID, Type: a.Decl.Type, Presets: a.Decl.Presets, Behavior: a.Decl.Behavior,
		Behaviors: len(a.Decl.Behaviors), Tools: toolNames(a)}
	if a.Profile != nil {
		f.Profile = a.Profile.Name
	}
	return f
}

// StandIn returns an agent of prog's shape that the rules of Global judge
// as they would the agent f was read from, and its declaration; false
// when prog has no profile of that name. It is fit for those rules only.
func (f AgentFacts) StandIn(prog *compiler.Program) (*compiler.Agent, *model.Agent, bool) {
	decl := &model.Agent{Type: f.Type, Presets: f.Presets, Behavior: f.Behavior, Behaviors: make([]model.BehaviorUse, f.Behaviors)}
	a := &compiler.Agent{ID: f.ID, Decl: decl}
	if f.Profile != "" {
		p, ok := prog.Profiles[f.Profile]
		if !ok {
			return nil, nil, false
		}
		a.Profile = p
	}
	for _, t := range f.Tools {
		a.Tools = append(a.Tools, compiler.ProvidedTool{Name: t})
	}
	return a, decl, true
}
