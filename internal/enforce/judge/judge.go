// Package judge sets up the rule engines that judge an agent's tool
// calls: one per agent (or per profile), compiled from the agent's
// flattened profile, gated by its agent.json, with the operator's
// on-error policy. charter eval, the Claude Code hook and charter serve
// all judge through a Judge, so that they give one verdict (but for a
// bundle holding an expression that does not compile: see rules.CompileDeferred).
package judge

import (
	"fmt"
	"sync"

	"github.com/charter-dev/charter/rules"
)

// Loader reads what judges an agent: its flattened profile and its
// agent.json; with agent "", the profile called profile and no agent
// document.
type Loader interface {
	// Load returns the profile and agent.json of agent (nil for a
	// profile alone).
	Load(agent, profile string) (rules.Profile, []byte, error)
	// HasAgent reports whether there is an agent of that id.
	HasAgent(id string) bool
	// AgentIDs returns the ids of every agent, to tell them from a
	// runtime's own subagents.
	AgentIDs() []string
	// Delegates returns the agents id may start (agent.json's
	// delegates_to), read without compiling its engine.
	Delegates(id string) ([]string, error)
}

// Judge hands out the compiled engines of one configuration (a bundle or
// a built repository), compiling each once. It is safe for concurrent
// use; the engines it returns are too (a Session is not).
type Judge struct {
	loader   Loader
	onError  rules.OnError
	roster   *rules.Agents
	deferCEL bool

	mu    sync.Mutex
	cache map[key]*compiled
}

// compiled is one engine, compiled once however many ask at once.
type compiled struct {
	once sync.Once
	e    *rules.Engine
	err  error
}

type key struct{ agent, profile, runtime string }

// New returns a Judge over what loader reads, whose engines give calls
// they cannot judge onError.
func New(loader Loader, onError rules.OnError) *Judge {
	return &Judge{loader: loader, onError: onError, roster: rules.NewAgents(loader.AgentIDs()), cache: map[key]*compiled{}}
}

// DeferExpressions makes the judge compile its engines with
// rules.CompileDeferred: each CEL expression compiled by the first call
// that reaches it. For a process that judges one call of a configuration
// already checked (the Claude Code hook on a built bundle); call it before
// the first Engine.
func (j *Judge) DeferExpressions() { j.deferCEL = true }

// HasAgent reports whether the configuration has an agent of that id.
func (j *Judge) HasAgent(id string) bool { return j.loader.HasAgent(id) }

// Engine returns the engine for the agent id (or, with id "", for the
// profile called profile), with the agent's gate read for runtime (a
// runtime's tool names, such as "claude-code"; "" for charter's own).
func (j *Judge) Engine(id, profile, runtime string) (*rules.Engine, error) {
	k := key{id, profile, runtime}
	if id != "" {
		k.profile = ""
	}
	j.mu.Lock()
	c, ok := j.cache[k]
	if !ok {
		c = &compiled{}
		j.cache[k] = c
	}
	j.mu.Unlock()
	c.once.Do(func() { c.e, c.err = j.compile(k, runtime) })
	return c.e, c.err
}

func (j *Judge) compile(k key, runtime string) (*rules.Engine, error) {
	p, agentJSON, err := j.loader.Load(k.agent, k.profile)
	if err != nil {
		return nil, err
	}
	compile := rules.Compile
	if j.deferCEL {
		compile = rules.CompileDeferred
	}
	e, err := compile(p)
	if err != nil {
		return nil, err
	}
	e.SetOnError(j.onError)
	if agentJSON != nil {
		gate, err := rules.ReadGate(agentJSON, runtime)
		if err != nil {
			return nil, fmt.Errorf("agent %s: %v", k.agent, err)
		}
		gate.Roster = j.roster
		e.SetGate(gate)
	}
	return e, nil
}

// Resolve names the agent a runtime's call is judged as, for the
// record: the bundle agent its agentType (a subagent's name; "" on the
// main thread) names when there is one, else agent (the caller's
// default). Whether agent may start it is Source's to judge.
func (j *Judge) Resolve(agent, agentType string) string {
	if agentType == "" || agent == "" {
		return agent
	}
	if ids := j.roster.Lookup(agentType); len(ids) > 0 {
		return ids[0]
	}
	return agent
}

// Source returns the engine source a Claude Code hook handler takes: for
// a call of agentType, the engine of the agent it is judged as, gated
// for runtime. With agent "", every call meets the profile called
// profile. Otherwise a subagent that is a configured agent is judged as
// itself only when agent may start it, directly or through its
// delegates (rules.Team); a call from any other agent is denied.
func (j *Judge) Source(agent, profile, runtime string) func(agentType string) (*rules.Engine, string, error) {
	if agent == "" {
		return func(string) (*rules.Engine, string, error) {
			e, err := j.Engine("", profile, runtime)
			return e, "", err
		}
	}
	team := &rules.Team{Main: agent, Roster: j.roster, Delegates: j.loader.Delegates,
		Engine: func(id string) (*rules.Engine, error) { return j.Engine(id, profile, runtime) }}
	return team.For
}
