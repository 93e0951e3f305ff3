package rules

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// DelegationTool is charter's tool that starts another agent (Claude
// Code's Agent and Task map to it). A call of it that names a bundle
// agent the caller may not start is blocked by the gate.
const DelegationTool = "delegate_to_executor"

// DelegationRule is the rule id of a call blocked because it starts, or
// comes from, an agent the session's agent may not delegate to.
const DelegationRule = "can_delegate_to"

// SubagentArgs are the arguments of a delegation call that name the
// agent it starts: Claude Code's subagent_type, and agent for runtimes
// that call charter's tool by its own name.
var SubagentArgs = []string{"subagent_type", "agent"}

// Agents is the roster of a bundle's agents, for the delegation check: it
// tells a bundle agent from a runtime's own (Claude Code's
// general-purpose, Explore, Plan), whose calls are judged as the caller's.
type Agents struct {
	ids   map[string]bool
	byKey map[string][]string
}

// NewAgents returns the roster of the agents with these ids.
func NewAgents(ids []string) *Agents {
	a := &Agents{ids: map[string]bool{}, byKey: map[string][]string{}}
	for _, id := range ids {
		if a.ids[id] {
			continue
		}
		a.ids[id] = true
		k := agentKey(id)
		a.byKey[k] = append(a.byKey[k], id)
	}
	for _, l := range a.byKey {
		slices.Sort(l)
	}
	return a
}

// agentKey is the form in which a runtime's name for an agent and an
// agent id are compared: export writes an id's _ as - (Claude Code's
// subagent names), and a runtime may match names without regard to case.
func agentKey(name string) string {
	return strings.ToLower(strings.ReplaceAll(name, "_", "-"))
}

// Lookup returns the bundle agents a runtime's name for an agent may
// stand for: the agent of that id first, then those whose id differs
// only in case or in _ for -. None means it names no bundle agent.
func (a *Agents) Lookup(name string) []string {
	if a == nil {
		return nil
	}
	ids := a.byKey[agentKey(name)]
	if a.ids[name] && ids[0] != name {
		ids = append([]string{name}, slices.DeleteFunc(slices.Clone(ids), func(s string) bool { return s == name })...)
	}
	return ids
}

// MayStart reports whether the gate's agent may start the bundle agent
// id: itself (which widens nothing), or one its delegates_to lists.
func (g *Gate) MayStart(id string) bool {
	return id == g.Agent || slices.Contains(g.Delegates, id)
}

// delegation judges a call of the delegation tool: every agent it names
// that is, or may be, a bundle agent must be one the gate's agent may
// start. A name that is no bundle agent (a runtime's own subagent) is let
// through: its calls are judged as the session's agent.
func (g *Gate) delegation(tool string, args map[string]any) (f Firing, note string, ok bool) {
	block := func(format string, a ...any) (Firing, string, bool) {
		return Firing{Rule: DelegationRule, Action: Block, Message: fmt.Sprintf(format, a...)}, "", false
	}
	var notes []string
	for _, field := range SubagentArgs {
		v, present := args[field]
		if !present {
			continue
		}
		name, isString := v.(string)
		if !isString {
			return block("%s may not make this %s call: its %s is not a string, so charter cannot tell which agent it starts", g.Agent, tool, field)
		}
		ids := g.Roster.Lookup(name)
		if g.Roster == nil && name != g.Agent && !slices.Contains(g.Delegates, name) {
			return block("%s may not start %s: charter was not told the bundle's agents, so it cannot tell %s from them, and %s may start only itself and %s (authority.can_delegate_to)", g.Agent, name, name, g.Agent, delegatesList(g))
		}
		for _, id := range ids {
			if !g.MayStart(id) {
				return block("%s may not start %s: %s is not in %s's authority.can_delegate_to, which lets it start %s", g.Agent, id, id, g.Agent, delegatesList(g))
			}
		}
		if len(ids) == 0 && g.Roster != nil && name != "" {
			notes = append(notes, fmt.Sprintf("charter: %s is no agent of the bundle; the calls of the subagent it starts are judged as the session's agent", name))
		}
	}
	return Firing{}, strings.Join(notes, "\n"), true
}

func delegatesList(g *Gate) string {
	if len(g.Delegates) == 0 {
		return "no other agent"
	}
	return strings.Join(g.Delegates, ", ")
}

// NotDelegatedError is the verdict on a call from a bundle agent the
// session's main agent may not start, directly or through the agents it
// may start: the call is denied. It is a decision, not a failure to
// reach one, so no on-error setting lets the call through.
type NotDelegatedError struct {
	Main, Agent string
	// From names how the runtime named the agent (Claude Code's
	// agent_type).
	From string
}

func (e *NotDelegatedError) Error() string {
	from := ""
	if e.From != "" && e.From != e.Agent {
		from = fmt.Sprintf(" (%s)", e.From)
	}
	return fmt.Sprintf("the call comes from %s%s, which %s may not start: %s is not in the authority.can_delegate_to of %s or of any agent %s may start (charter rule %s)", e.Agent, from, e.Main, e.Agent, e.Main, e.Main, DelegationRule)
}

// Team picks the engine that judges each call of a session whose main
// agent is Main: the main thread's, and those of the subagents it starts
// (Claude Code's agent_type). A subagent that is a bundle agent is judged
// as itself when Main may start it, directly or through agents it may
// start; otherwise its calls are denied (NotDelegatedError). A subagent
// that is no bundle agent (general-purpose, Explore, Plan) is judged as
// Main. Runtimes, eval and charter serve all choose through it.
type Team struct {
	Main   string
	Roster *Agents
	// Engine returns the engine of a bundle agent, its gate set (with
	// Delegates and Roster).
	Engine func(id string) (*Engine, error)
	// Delegates, when set, returns an agent's delegates_to without
	// compiling its engine (from the bundle's delegation.json, or
	// ReadDelegates on its agent.json): For walks the chain from Main
	// with it. When nil, the engines' gates are read.
	Delegates func(id string) ([]string, error)
}

// For returns the engine that judges a call from the agent the runtime
// names as from ("" for the main thread), and a note for the user when
// the call is judged as another agent than it names.
func (t *Team) For(from string) (*Engine, string, error) {
	if from == "" || from == t.Main {
		e, err := t.Engine(t.Main)
		return e, "", err
	}
	ids := t.Roster.Lookup(from)
	if len(ids) == 0 {
		e, err := t.Engine(t.Main)
		return e, fmt.Sprintf("charter: the call comes from %s, which is no agent charter knows, so it is judged as %s", from, t.Main), err
	}
	id := ids[0]
	if id != t.Main {
		ok, err := t.reaches(id)
		if err != nil {
			return nil, "", err
		}
		if !ok {
			return nil, "", &NotDelegatedError{Main: t.Main, Agent: id, From: from}
		}
	}
	e, err := t.Engine(id)
	return e, "", err
}

func (t *Team) delegates(id string) ([]string, error) {
	if t.Delegates != nil {
		return t.Delegates(id)
	}
	e, err := t.Engine(id)
	if err != nil {
		return nil, err
	}
	if e.gate == nil {
		return nil, errors.New("agent " + id + " has no gate, so charter cannot tell whom it may start")
	}
	return e.gate.Delegates, nil
}

// ReadDelegates reads agent.json's delegates_to: the agents it may start.
// An agent.json without it (an older charter's) is an error.
func ReadDelegates(agentJSON []byte) ([]string, error) {
	var doc struct {
		ID        string    `json:"id"`
		Delegates *[]string `json:"delegates_to"`
	}
	if err := json.Unmarshal(agentJSON, &doc); err != nil {
		return nil, fmt.Errorf("reading agent.json: %w", err)
	}
	if doc.Delegates == nil {
		return nil, fmt.Errorf("agent %s has no delegates_to, so charter cannot tell whom it may start: the bundle was built by an older charter; build it again", doc.ID)
	}
	return *doc.Delegates, nil
}

// reaches reports whether Main may start id through a chain of agents
// each of which may start the next.
func (t *Team) reaches(id string) (bool, error) {
	seen := map[string]bool{t.Main: true}
	queue := []string{t.Main}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		ds, err := t.delegates(cur)
		if err != nil {
			return false, fmt.Errorf("reading who %s may start: %w", cur, err)
		}
		for _, d := range ds {
			if d == id {
				return true, nil
			}
			if !seen[d] {
				seen[d] = true
				queue = append(queue, d)
			}
		}
	}
	return false, nil
}
