package rules_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/rules"
)

// A block rule with a cooldown let the blocked call through after one other
// call: the blocked call took no index, the other call did, and the retry
// fell inside the cooldown. A cooldown on a block rule is now an error.
func TestBlockCooldownIsAnError(t *testing.T) {
	r := rule("stop", "Bash", rules.Block, &rules.Condition{Type: rules.Contains, Field: "command", Substring: "rm"})
	r.Cooldown = 3
	_, err := rules.Compile(rules.Profile{Name: "p", Rules: []rules.Rule{r}})
	var ce *rules.CheckError
	if !errors.As(err, &ce) || ce.Field != "cooldown" || !strings.Contains(ce.Msg, "would let the blocked call through") {
		t.Fatalf("Compile: %v", err)
	}
}

// Whatever happens between them, a call a block rule blocks stays blocked.
func TestBlockedCallStaysBlocked(t *testing.T) {
	e := mustCompile(t, rule("stop", "Bash", rules.Block, &rules.Condition{Type: rules.Contains, Field: "command", Substring: "rm"}))
	s := &rules.Session{}
	bad := rules.Call{Tool: "Bash", Args: map[string]any{"command": "rm -rf /data"}}
	for i := range 5 {
		if v := e.Evaluate(rules.Pre, bad, s); v.Decision != rules.Blocked {
			t.Fatalf("retry %d let the call through: %+v", i, v)
		}
		ok := rules.Call{Tool: "Read", Args: map[string]any{"file_path": "x"}}
		e.Evaluate(rules.Pre, ok, s)
		s.Record(ok)
	}
}

// A rule that could block and cannot be evaluated denies the call; a warn
// rule that errors is reported and decides nothing.
func TestRuleErrorDenies(t *testing.T) {
	e := mustCompile(t,
		rule("a_block_errs", "*", rules.Block, &rules.Condition{Type: rules.Expr, Expr: "call.args.file_path.startsWith('/etc')"}),
		rule("b_warn", "*", rules.Warn, nil),
	)
	v := e.Evaluate(rules.Pre, rules.Call{Tool: "Bash", Args: map[string]any{"command": "ls"}}, nil)
	if v.Decision != rules.Blocked {
		t.Fatalf("decision %s; a block rule that errors must deny: %+v", v.Decision, v)
	}
	if len(v.Errors) != 1 || v.Errors[0].Rule != "a_block_errs" {
		t.Errorf("errors: %+v", v.Errors)
	}
	if diff := cmp.Diff([]string{rules.FailClosedRule, "b_warn"}, fired(v)); diff != "" {
		t.Errorf("fired (-want +got):\n%s", diff)
	}
	if !strings.Contains(v.Fired[0].Message, "rule a_block_errs could not be evaluated") {
		t.Errorf("message: %s", v.Fired[0].Message)
	}

	warnOnly := mustCompile(t, rule("w", "*", rules.Warn, &rules.Condition{Type: rules.Expr, Expr: "call.args.nope == 1"}))
	if v := warnOnly.Evaluate(rules.Pre, rules.Call{Tool: "Read"}, nil); v.Decision != rules.Allowed || len(v.Errors) != 1 {
		t.Errorf("a warn rule's error: %+v", v)
	}

	// The operator's choice: errors let the call through.
	e.SetOnError(rules.OnErrorAllow)
	v = e.Evaluate(rules.Pre, rules.Call{Tool: "Bash", Args: map[string]any{"command": "ls"}}, nil)
	if v.Decision != rules.Allowed || len(v.Errors) != 1 {
		t.Errorf("with OnErrorAllow: %+v", v)
	}
}

func TestUnknownPhaseDenies(t *testing.T) {
	e := mustCompile(t)
	if v := e.Evaluate("during", rules.Call{Tool: "Read"}, nil); v.Decision != rules.Blocked {
		t.Errorf("unknown phase: %+v", v)
	}
}

// Input past what the engine judges is denied, never cut: a command padded
// past the limit does not hide what follows.
func TestOversizeInputDenied(t *testing.T) {
	e := mustCompile(t, rule("no_rm", "bash", rules.Block, &rules.Condition{Type: rules.Contains, Field: "command", Substring: "rm -rf"}))
	padded := strings.Repeat(" ", rules.MaxStringBytes) + "; rm -rf /data"
	var deep any = "x"
	for range rules.MaxDepth + 1 {
		deep = []any{deep}
	}
	wide := make([]any, rules.MaxNodes+1)
	for i := range wide {
		wide[i] = 1.0
	}
	for name, args := range map[string]map[string]any{
		"long string": {"command": padded},
		"long key":    {strings.Repeat("k", rules.MaxStringBytes+1): "x"},
		"deep":        {"command": "ls", "deep": deep},
		"wide":        {"command": "ls", "wide": wide},
	} {
		v := e.Evaluate(rules.Pre, rules.Call{Tool: "Bash", Args: args}, nil)
		if v.Decision != rules.Blocked || len(v.Fired) == 0 || v.Fired[0].Rule != rules.FailClosedRule {
			t.Errorf("%s: %+v", name, v)
			continue
		}
		if !strings.Contains(v.Fired[0].Message, "more than charter judges") {
			t.Errorf("%s: message %q", name, v.Fired[0].Message)
		}
	}
	// Within the limits it is judged whole.
	v := e.Evaluate(rules.Pre, rules.Call{Tool: "Bash", Args: map[string]any{"command": strings.Repeat(" ", rules.MaxStringBytes-20) + "; rm -rf /"}}, nil)
	if v.Decision != rules.Blocked || v.Fired[0].Rule != "no_rm" {
		t.Errorf("within the limit: %+v", v)
	}
	// A result is never a reason to deny: phase post decides nothing.
	if v := e.Evaluate(rules.Post, rules.Call{Tool: "Bash", Args: map[string]any{"command": "ls"}, Result: padded}, nil); v.Decision != rules.Allowed {
		t.Errorf("post with a huge result: %+v", v)
	}
}

// An expression whose result would grow quadratically errors before it
// allocates: s.replace("", s) on a 100 KB command is 10 GB.
func TestCELAllocationGuard(t *testing.T) {
	e := mustCompile(t, rule("quadratic", "bash", rules.Block, &rules.Condition{Type: rules.Expr,
		Expr: "call.args.command.replace('', call.args.command).size() > 0"}))
	cmd := strings.Repeat("a", 100<<10)
	v := e.Evaluate(rules.Pre, rules.Call{Tool: "Bash", Args: map[string]any{"command": cmd}}, nil)
	if v.Decision != rules.Blocked || len(v.Errors) != 1 || !strings.Contains(v.Errors[0].Error, "more than") {
		t.Errorf("verdict: %+v", v)
	}
	// lists.range of a huge number, split, join, and strings made over and
	// over (each copy cost one step, whatever its size: 300 copies of 2 MB
	// were 600 MB) are guarded the same way.
	for _, expr := range []string{"lists.range(2000000000).size() > 0", "call.args.command.split('').size() > 0",
		"lists.range(300).map(i, call.args.command).join('').size() > 0",
		"lists.range(300).map(i, call.args.command + call.args.command).size() > 0",
		"lists.range(300).map(i, bytes(call.args.command)).size() > 0",
	} {
		e := mustCompile(t, rule("alloc", "bash", rules.Block, &rules.Condition{Type: rules.Expr, Expr: expr}))
		big := strings.Repeat("a", 1<<20)
		v := e.Evaluate(rules.Pre, rules.Call{Tool: "Bash", Args: map[string]any{"command": big}}, nil)
		if v.Decision != rules.Blocked || len(v.Errors) != 1 {
			t.Errorf("%s: %+v", expr, v)
		}
	}
	// Every expression runs under the cost limit, with or without a
	// comprehension.
	e = mustCompile(t, rule("long", "bash", rules.Block, &rules.Condition{Type: rules.Expr,
		Expr: strings.Repeat("call.args.command.lowerAscii() == 'x' || ", 200) + "false"}))
	v = e.Evaluate(rules.Pre, rules.Call{Tool: "Bash", Args: map[string]any{"command": strings.Repeat("a", 4<<20)}}, nil)
	if v.Decision != rules.Blocked || len(v.Errors) != 1 || !strings.Contains(v.Errors[0].Error, "cost limit") {
		t.Errorf("cost limit without a comprehension: %+v", v)
	}
}

// An ask rule asks; block wins over ask; a rule asks again until a call it
// asked about runs (the user approved it), and its cooldown counts from
// there.
func TestAsk(t *testing.T) {
	ask := rule("confirm", "Bash", rules.Ask, &rules.Condition{Type: rules.Contains, Field: "command", Substring: "rm"})
	ask.Cooldown = 1
	e := mustCompile(t, ask, rule("never", "Bash", rules.Block, &rules.Condition{Type: rules.Contains, Field: "command", Substring: "/etc"}))
	s := &rules.Session{}
	rm := rules.Call{Tool: "Bash", ID: "toolu_1", Args: map[string]any{"command": "rm x"}}
	v := e.Evaluate(rules.Pre, rm, s)
	if v.Decision != rules.Asked || diffStrings(fired(v), "confirm") {
		t.Fatalf("ask: %+v", v)
	}
	if got := v.Messages(rules.Ask); len(got) != 1 {
		t.Errorf("Messages(Ask) = %v", got)
	}
	// Declined: the call never runs; another call runs; the retry asks again.
	other := rules.Call{Tool: "Read", ID: "toolu_2", Args: map[string]any{"file_path": "a"}}
	s.Record(other)
	rm.ID = "toolu_3"
	if v := e.Evaluate(rules.Pre, rm, s); v.Decision != rules.Asked {
		t.Fatalf("the retry after a decline was not asked: %+v", v)
	}
	// Approved: the call runs and is recorded; the approval is the rule's
	// firing, and the cooldown starts there.
	e.Evaluate(rules.Post, rm, s)
	s.Record(rm)
	if i, ok := s.LastFired("confirm"); !ok || i != 1 {
		t.Errorf("LastFired(confirm) = %d, %v; want 1 (the approved call)", i, ok)
	}
	rm.ID = "toolu_4"
	if v := e.Evaluate(rules.Pre, rm, s); v.Decision != rules.Allowed {
		t.Errorf("within the cooldown after an approval: %+v", v)
	}
	s.Record(rm)
	rm.ID = "toolu_5"
	if v := e.Evaluate(rules.Pre, rm, s); v.Decision != rules.Asked {
		t.Errorf("after the cooldown: %+v", v)
	}
	// Block wins.
	if v := e.Evaluate(rules.Pre, rules.Call{Tool: "Bash", Args: map[string]any{"command": "rm /etc/x"}}, s); v.Decision != rules.Blocked {
		t.Errorf("block and ask: %+v", v)
	}
}

func diffStrings(got []string, want ...string) bool { return cmp.Diff(want, got) != "" }

// A command charter cannot read is denied by the built-in rules that read
// commands: they cannot decide, and fail closed.
func TestUnreadableCommandDenied(t *testing.T) {
	e := builtinEngine(t, "dev")
	v := e.Evaluate(rules.Pre, rules.Call{Tool: "Bash", Args: map[string]any{"command": "echo 'unclosed"}}, nil)
	if v.Decision != rules.Blocked || v.Fired[0].Rule != rules.FailClosedRule || !strings.Contains(v.Fired[0].Message, "rule confirm_destructive could not be evaluated") {
		t.Errorf("%+v", v)
	}
	long := "echo " + strings.Repeat("a", 300<<10) + "; rm -rf /"
	if v := e.Evaluate(rules.Pre, rules.Call{Tool: "Bash", Args: map[string]any{"command": long}}, nil); v.Decision != rules.Blocked {
		t.Errorf("a command past the parser's limit: %+v", v)
	}
}

// lists' flatten makes a list as long as its lists together, and a list
// can hold the same list many times: it errors before it makes more
// than the items an expression may (l.map(x, l).flatten() on 1,100
// items was 1.2 million, on the 100,000 a call may hold 10^10), and
// flattens as before within them.
func TestCELFlattenGuard(t *testing.T) {
	l := make([]any, 1100)
	for i := range l {
		l[i] = int64(i)
	}
	for _, expr := range []string{
		"call.args.l.map(x, call.args.l).flatten().size() > 0",
		"call.args.l.map(x, [call.args.l]).flatten(2).size() > 0",
		"call.args.l.map(x, call.args.l.map(y, [])).flatten(2).size() >= 0",
	} {
		e := mustCompile(t, rule("flat", "bash", rules.Block, &rules.Condition{Type: rules.Expr, Expr: expr}))
		v := e.Evaluate(rules.Pre, rules.Call{Tool: "Bash", Args: map[string]any{"l": l}}, nil)
		if v.Decision != rules.Blocked || len(v.Errors) != 1 || !strings.Contains(v.Errors[0].Error, "more than") {
			t.Errorf("%s: %+v", expr, v)
		}
	}
	for expr, errs := range map[string]int{
		"[[1], [2, 3], 4, []].flatten() == [1, 2, 3, 4]":   0,
		"[1, [2, [3, [4]]]].flatten(2) == [1, 2, 3, [4]]":  0,
		"[1, [2]].flatten(0) == [1, [2]]":                  0,
		"call.args.l.map(x, [x]).flatten().size() == 1100": 0,
		"[1, [2]].flatten(-1).size() > 0":                  1,
	} {
		e := mustCompile(t, rule("flat", "bash", rules.Block, &rules.Condition{Type: rules.Expr, Expr: expr}))
		v := e.Evaluate(rules.Pre, rules.Call{Tool: "Bash", Args: map[string]any{"l": l}}, nil)
		if v.Decision != rules.Blocked || len(v.Errors) != errs {
			t.Errorf("%s: %+v", expr, v)
		}
	}
}
