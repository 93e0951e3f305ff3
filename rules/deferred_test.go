package rules_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/rules"
)

// CompileDeferred gives the verdicts Compile gives.
func TestCompileDeferredSameVerdicts(t *testing.T) {
	p := rules.Profile{Name: "p", Rules: []rules.Rule{
		rule("big_mail", "email", rules.Block, &rules.Condition{Type: rules.Expr, Expr: "'to' in call.args && size(call.args.to) > 2"}),
		rule("no_rm", "Bash", rules.Block, &rules.Condition{Type: rules.Expr, Expr: "call.commands().exists(c, c.program == 'rm')"}),
		rule("etc", "*", rules.Warn, &rules.Condition{Type: rules.Expr, Expr: "call.path.startsWith('/etc')"}),
	}}
	eager, err := rules.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	deferred, err := rules.CompileDeferred(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []rules.Call{
		{Tool: "email", Args: map[string]any{"to": []any{"a", "b", "c"}}},
		{Tool: "email", Args: map[string]any{"to": []any{"a"}}},
		{Tool: "Bash", Args: map[string]any{"command": "ls && rm -rf x"}},
		{Tool: "Bash", Args: map[string]any{"command": "ls"}},
		{Tool: "Read", Args: map[string]any{"file_path": "/etc/passwd"}},
	} {
		want := eager.Evaluate(rules.Pre, c, &rules.Session{})
		got := deferred.Evaluate(rules.Pre, c, &rules.Session{})
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s %v: deferred verdict differs (-eager +deferred):\n%s", c.Tool, c.Args, diff)
		}
	}
}

// An expression CompileDeferred could not compile fails closed on the calls
// its rule applies to (a block rule denies them) and on no other: Compile
// refuses the whole profile.
func TestCompileDeferredBadExpression(t *testing.T) {
	p := rules.Profile{Name: "p", Rules: []rules.Rule{
		rule("bad", "Bash", rules.Block, &rules.Condition{Type: rules.Expr, Expr: "call.nosuchfield =="}),
		rule("badwarn", "Write", rules.Warn, &rules.Condition{Type: rules.Expr, Expr: "nosuchfunc(call)"}),
	}}
	if _, err := rules.Compile(p); err == nil {
		t.Fatal("Compile accepted an expression that does not parse")
	}
	e, err := rules.CompileDeferred(p)
	if err != nil {
		t.Fatalf("CompileDeferred: %v", err)
	}
	v := e.Evaluate(rules.Pre, rules.Call{Tool: "Bash", Args: map[string]any{"command": "ls"}}, &rules.Session{})
	if v.Decision != rules.Blocked || len(v.Errors) != 1 || v.Errors[0].Rule != "bad" || !strings.Contains(v.Errors[0].Error, "does not parse") {
		t.Errorf("a block rule whose expression does not compile must deny its calls, saying why: %+v", v)
	}
	v = e.Evaluate(rules.Pre, rules.Call{Tool: "Write", Args: map[string]any{"file_path": "x"}}, &rules.Session{})
	if v.Decision == rules.Blocked || len(v.Errors) != 1 || v.Errors[0].Rule != "badwarn" {
		t.Errorf("a warn rule whose expression does not compile is an error of the call, and decides nothing: %+v", v)
	}
	v = e.Evaluate(rules.Pre, rules.Call{Tool: "Read", Args: map[string]any{"file_path": "x"}}, &rules.Session{})
	if v.Decision == rules.Blocked || len(v.Errors) != 0 {
		t.Errorf("a call no bad rule applies to: %+v", v)
	}
	// The other structural checks stay eager.
	if _, err := rules.CompileDeferred(rules.Profile{Name: "p", Rules: []rules.Rule{rule("x", "Bash", "explode", nil)}}); err == nil {
		t.Error("CompileDeferred accepted an unknown action")
	}
}
