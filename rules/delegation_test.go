package rules

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAgentsLookup(t *testing.T) {
	a := NewAgents([]string{"ops_bot", "ops-bot", "rev", "rev"})
	for name, want := range map[string][]string{
		"ops-bot": {"ops-bot", "ops_bot"},
		"ops_bot": {"ops_bot", "ops-bot"},
		"OPS-BOT": {"ops-bot", "ops_bot"},
		"rev":     {"rev"},
		"Rev":     {"rev"},
		"Explore": nil,
		"":        nil,
	} {
		if diff := cmp.Diff(want, a.Lookup(name)); diff != "" {
			t.Errorf("Lookup(%q) (-want +got):\n%s", name, diff)
		}
	}
	if got := (*Agents)(nil).Lookup("rev"); got != nil {
		t.Errorf("nil roster: %v", got)
	}
}

// A delegation call is judged by the agents it starts, once the tool
// itself is let through. (An agent that declares no tools may call none,
// the delegation tool included: TestGateUndeclared.)
func TestGateDelegation(t *testing.T) {
	roster := NewAgents([]string{"loner", "lead", "rev", "ops_bot", "ops-bot"})
	names := map[string]string{"Agent": DelegationTool, "Task": DelegationTool, "Read": "read_file"}
	for _, c := range []struct {
		agent     string
		delegates []string
		roster    *Agents
		tool      string
		args      map[string]any
		want      string // "" allowed, else in the block message
	}{
		{agent: "loner", tool: "Agent", args: map[string]any{"subagent_type": "ops_bot"}, want: "loner may not start ops_bot: ops_bot is not in loner's authority.can_delegate_to, which lets it start no other agent"},
		{agent: "loner", tool: "Task", args: map[string]any{"subagent_type": "Ops-Bot"}, want: "loner may not start ops-bot"},
		{agent: "loner", tool: DelegationTool, args: map[string]any{"agent": "rev"}, want: "loner may not start rev"},
		{agent: "loner", tool: "Agent", args: map[string]any{"subagent_type": []any{"rev"}}, want: "its subagent_type is not a string"},
		{agent: "loner", tool: "Agent", args: map[string]any{"subagent_type": "Explore", "agent": "rev"}, want: "loner may not start rev"},
		{agent: "loner", tool: "Agent", args: map[string]any{"subagent_type": "loner"}},
		{agent: "loner", tool: "Agent", args: map[string]any{"subagent_type": "Explore"}},
		{agent: "loner", tool: "Agent", args: map[string]any{"prompt": "no type: general-purpose"}},
		{agent: "lead", delegates: []string{"rev"}, tool: "Agent", args: map[string]any{"subagent_type": "rev"}},
		// ops-bot and ops_bot are one name to Claude Code: both must be
		// delegated.
		{agent: "lead", delegates: []string{"ops_bot"}, tool: "Agent", args: map[string]any{"subagent_type": "ops-bot"}, want: "lead may not start ops-bot"},
		{agent: "lead", delegates: []string{"ops_bot", "ops-bot"}, tool: "Agent", args: map[string]any{"subagent_type": "ops-bot"}},
		// Without a roster, only the agent itself and its delegates.
		{agent: "loner", roster: &Agents{}, tool: "Agent", args: map[string]any{"subagent_type": "Explore"}, want: "charter was not told the bundle's agents, so it cannot tell Explore from them, and loner may start only itself and no other agent"},
		{agent: "loner", roster: &Agents{}, tool: "Agent", args: map[string]any{"subagent_type": "loner"}},
		{agent: "loner", tool: "Read", args: map[string]any{"subagent_type": "ops_bot"}},
	} {
		e, err := Compile(Profile{Name: "p"})
		if err != nil {
			t.Fatal(err)
		}
		g := &Gate{Agent: c.agent, Delegates: c.delegates, Roster: roster, Names: names,
			NameRuntime: map[string]string{"Agent": "claude-code", "Task": "claude-code", "Read": "claude-code"}, Runtime: "claude-code", Declared: true,
			Tools: []string{DelegationTool, "read_file"}}
		if c.roster != nil {
			g.Roster = nil
		}
		e.SetGate(g)
		v := e.Evaluate(Pre, Call{Tool: c.tool, Args: c.args}, &Session{})
		got := ""
		for _, f := range v.Fired {
			got += f.Rule + ": " + f.Message
		}
		switch {
		case c.want == "" && v.Decision != Allowed:
			t.Errorf("%s %v: %s, want allowed: %s", c.tool, c.args, v.Decision, got)
		case c.want != "" && (v.Decision != Blocked || !strings.Contains(got, c.want) || !strings.HasPrefix(got, DelegationRule+": ")):
			t.Errorf("%s %v: %s %q, want blocked by %s with %q", c.tool, c.args, v.Decision, got, DelegationRule, c.want)
		}
	}
	// Without a roster, a name the gate cannot place is denied.
	e, _ := Compile(Profile{Name: "p"})
	e.SetGate(&Gate{Agent: "loner", Tools: []string{DelegationTool}, Declared: true})
	v := e.Evaluate(Pre, Call{Tool: DelegationTool, Args: map[string]any{"agent": "Explore"}}, nil)
	if v.Decision != Blocked || !strings.Contains(v.Fired[0].Message, "charter was not told the bundle's agents") {
		t.Errorf("no roster: %+v", v)
	}
}

func TestTeam(t *testing.T) {
	delegates := map[string][]string{"lead": {"rev"}, "rev": {"junior"}, "junior": nil, "ops_bot": nil, "loner": nil, "cyc": {"cyc2"}, "cyc2": {"cyc"}}
	var ids []string
	for id := range delegates {
		ids = append(ids, id)
	}
	engines := map[string]*Engine{}
	engine := func(id string) (*Engine, error) {
		if e, ok := engines[id]; ok {
			return e, nil
		}
		d, ok := delegates[id]
		if !ok {
			return nil, errors.New("no agent " + id)
		}
		e, err := Compile(Profile{Name: id})
		if err != nil {
			return nil, err
		}
		e.SetGate(&Gate{Agent: id, Delegates: d})
		engines[id] = e
		return e, nil
	}
	for _, c := range []struct {
		main, from string
		judgedAs   string // "" denied
		note       string
	}{
		{main: "lead", from: "", judgedAs: "lead"},
		{main: "lead", from: "lead", judgedAs: "lead"},
		{main: "lead", from: "rev", judgedAs: "rev"},
		{main: "lead", from: "junior", judgedAs: "junior"}, // through rev
		{main: "lead", from: "ops-bot"},
		{main: "lead", from: "OPS_BOT"},
		{main: "rev", from: "lead"},
		{main: "loner", from: "ops_bot"},
		{main: "cyc", from: "lead"},
		{main: "cyc", from: "cyc2", judgedAs: "cyc2"},
		{main: "lead", from: "general-purpose", judgedAs: "lead", note: "general-purpose, which is no agent charter knows, so it is judged as lead"},
	} {
		team := &Team{Main: c.main, Roster: NewAgents(ids), Engine: engine}
		e, note, err := team.For(c.from)
		var nd *NotDelegatedError
		switch {
		case c.judgedAs == "" && !errors.As(err, &nd):
			t.Errorf("%s in %s's session: %v, want NotDelegatedError", c.from, c.main, err)
		case c.judgedAs == "":
			if !strings.Contains(err.Error(), c.main+" may not start") || !strings.Contains(err.Error(), "authority.can_delegate_to") {
				t.Errorf("%s in %s's session: %v", c.from, c.main, err)
			}
		case err != nil:
			t.Errorf("%s in %s's session: %v", c.from, c.main, err)
		case e.gate.Agent != c.judgedAs:
			t.Errorf("%s in %s's session: judged as %s, want %s", c.from, c.main, e.gate.Agent, c.judgedAs)
		case !strings.Contains(note, c.note):
			t.Errorf("%s in %s's session: note %q lacks %q", c.from, c.main, note, c.note)
		}
	}
	// An agent whose engine cannot be read is a failure, not a pass.
	team := &Team{Main: "lead", Roster: NewAgents([]string{"lead", "ghost"}), Engine: engine}
	if _, _, err := team.For("ghost"); err == nil {
		t.Error("an unreadable delegation chain passed")
	}
}

func TestReadDelegates(t *testing.T) {
	got, err := ReadDelegates([]byte(`{"id": "a", "delegates_to": ["b"]}`))
	if err != nil || !cmp.Equal(got, []string{"b"}) {
		t.Errorf("got %v, %v", got, err)
	}
	if _, err := ReadDelegates([]byte(`{"id": "a"}`)); err == nil || !strings.Contains(err.Error(), "older charter") {
		t.Errorf("no delegates_to: %v", err)
	}
}

// With Delegates set, the chain is read from it, not from compiled
// engines.
func TestTeamDelegates(t *testing.T) {
	compiled := 0
	team := &Team{Main: "a", Roster: NewAgents([]string{"a", "b", "c", "d"}),
		Engine: func(id string) (*Engine, error) {
			compiled++
			e, err := Compile(Profile{Name: id})
			e.SetGate(&Gate{Agent: id})
			return e, err
		},
		Delegates: func(id string) ([]string, error) {
			return map[string][]string{"a": {"b"}, "b": {"c"}}[id], nil
		}}
	if _, _, err := team.For("c"); err != nil || compiled != 1 {
		t.Errorf("c: %v, %d engines compiled, want 1", err, compiled)
	}
	var nd *NotDelegatedError
	if _, _, err := team.For("d"); !errors.As(err, &nd) {
		t.Errorf("d: %v", err)
	}
}
