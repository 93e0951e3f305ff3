package rules_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charter-dev/charter/rules"
)

// Which expressions run without the cost tracker: those whose cost CEL
// bounds within the limit, and that make no string or bytes (charter
// charges those by size, which CEL's bound does not know).
func TestCostBound(t *testing.T) {
	for expr, want := range map[string]bool{
		"session.streak() >= 2 && session.call(-1).fingerprint == call.fingerprint":        true,
		"call.path != '' && !session.hasPath('read', call.path)":                           true,
		"'bash' in call.families && call.commands().exists(c, c.destructive != '')":        true,
		"call.commands().exists(c, c.program == 'git' && c.flags.exists(f, f == 'force'))": false, // flags: no bound known
		"call.args.l.all(x, call.args.l.all(y, x == y))":                                   false, // quadratic
		"call.args.command + call.args.command == 'x'":                                     false, // makes a string
		"lists.range(300).map(i, bytes(call.args.command)).size() > 0":                     false,
		"call.args.command.lowerAscii() == 'x'":                                            false,
		"dyn(call.args.command) == 'x'":                                                    false,
		"call.args.command.replace('', call.args.command).size() > 0":                      false,
		"lists.range(2000000000).size() > 0":                                               false,
		strings.Repeat("call.args.command.contains('x') || ", 300) + "false":               false, // 300 scans of 4 MiB: 12.6 M
		strings.Repeat("call.args.command.contains('x') || ", 200) + "false":               true,  // 200: 8.4 M
	} {
		got, max, err := rules.CostBound(expr, 10)
		if err != nil || got != want {
			t.Errorf("%.70s: bounded %v (estimate %d, %v), want %v", expr, got, max, err, want)
		}
	}
}

// What the tracker charges a built-in rule that runs without it stays
// within CEL's bound, on calls at the engine's limits: the bound is what
// lets the rule run untracked, so it must hold.
func TestCostBoundHolds(t *testing.T) {
	big := strings.Repeat("a", rules.MaxStringBytes)
	edits := make([]any, 2000)
	for i := range edits {
		edits[i] = map[string]any{"new_string": big[:1000], "old_string": "x"}
	}
	cmd := strings.Repeat("rm -rf /tmp/x; ", 10000/4)
	calls := []rules.Call{
		{Tool: "Bash", Args: map[string]any{"command": cmd}},
		{Tool: "Edit", Args: map[string]any{"file_path": big, "new_string": big, "old_string": big}},
		{Tool: "MultiEdit", Args: map[string]any{"file_path": "/a", "edits": edits}},
		{Tool: "Write", Args: map[string]any{"file_path": "/a", "content": big}},
		{Tool: "query", Args: map[string]any{"query": "DROP TABLE x; " + big[:1<<20]}},
		{Tool: "send_email", Args: map[string]any{"to": edits}},
	}
	s := codingSession(1000)
	checked := 0
	for _, name := range builtinProfiles {
		p := builtin(t, name)
		e := builtinEngine(t, name)
		for _, r := range p.Rules {
			if r.Condition == nil || r.Condition.Type != rules.Expr {
				continue
			}
			bounded, max, err := rules.CostBound(r.Condition.Expr, len(p.ToolFamilies))
			if err != nil {
				t.Fatal(err)
			}
			if !bounded {
				continue
			}
			for _, c := range calls {
				got, err := rules.TrackedCost(e, r.Condition.Expr, c, s)
				if err != nil {
					t.Fatal(err)
				}
				if got > max {
					t.Errorf("%s %s on %s: charged %d, more than the bound %d", name, r.ID, c.Tool, got, max)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no rule runs untracked")
	}
	t.Log(fmt.Sprint(checked, " evaluations checked"))
}
