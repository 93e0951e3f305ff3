package diff

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestStrictness: a setting whose category orders its options is widened
// by a move toward the loose end and narrowed by one toward the strict
// end; a setting without an order stays neutral. Run limits and an ask
// action are ranked too.
func TestStrictness(t *testing.T) {
	order := `"behavior_strictness": {"approval.financial_actions": ["require_approval", "proceed"], "proactivity.follow_ups": ["manual", "ask_first", "automatic"]}`
	old := doc(t, `{`+order+`, "behavior": {"approval": {"financial_actions": "require_approval"}, "proactivity": {"follow_ups": "automatic"}, "communication": {"verbosity": "concise"}},
		"max_turns": 10, "timeout": 60, "profile": {"rules": [{"id": "r", "action": "block"}, {"id": "s", "action": "warn"}]}}`)
	new := doc(t, `{`+order+`, "behavior": {"approval": {"financial_actions": "proceed"}, "proactivity": {"follow_ups": "ask_first"}, "communication": {"verbosity": "detailed"}},
		"max_turns": 20, "profile": {"rules": [{"id": "r", "action": "ask"}, {"id": "s", "action": "ask"}]}}`)
	type row struct{ Effect, Reason string }
	got := map[string]row{}
	for _, c := range Agents(map[string]map[string]any{"ann": old}, map[string]map[string]any{"ann": new}) {
		got[c.Path] = row{c.Effect, c.Reason}
	}
	want := map[string]row{
		"agents.ann.behavior.approval.financial_actions": {Widened, "loosened"},
		"agents.ann.behavior.proactivity.follow_ups":     {Narrowed, "made stricter"},
		"agents.ann.behavior.communication.verbosity":    {Neutral, ""},
		"agents.ann.max_turns":                           {Widened, "turn limit raised"},
		"agents.ann.timeout":                             {Widened, "time limit raised"},
		"agents.ann.profile.rules[r].action":             {Widened, "rule r action weakened"},
		"agents.ann.profile.rules[s].action":             {Narrowed, "rule s action strengthened"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}
