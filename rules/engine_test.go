package rules_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/charter-dev/charter/rules"
)

var testFamilies = map[string][]string{
	"edit": {"Edit", "write_file"},
	"read": {"Read", "read_file", "Grep"},
	"bash": {"Bash"},
	// A family that shares its name with a tool.
	"Deploy": {"deploy_staging"},
}

func mustCompile(t testing.TB, rs ...rules.Rule) *rules.Engine {
	t.Helper()
	e, err := rules.Compile(rules.Profile{Name: "test", ToolFamilies: testFamilies, Rules: rs})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func rule(id, trigger string, action rules.Action, c *rules.Condition) rules.Rule {
	return rules.Rule{ID: id, Trigger: trigger, Action: action, Message: id + " fired", Condition: c, Enabled: true}
}

// fired returns the ids of the rules that fired.
func fired(v rules.Verdict) []string {
	out := []string{}
	for _, f := range v.Fired {
		out = append(out, f.Rule)
	}
	return out
}

func TestConditions(t *testing.T) {
	args := map[string]any{
		"command":    "rm -rf /tmp/x",
		"file_path":  "/repo/./src/a.go",
		"count":      3.0,
		"flag":       true,
		"nested":     map[string]any{"inner": map[string]any{"value": "deep text"}},
		"edits":      []any{map[string]any{"new_string": "first"}, map[string]any{"new_string": "second"}},
		"list":       []any{"a", "b"},
		"dotted.key": "literal dotted key",
	}
	tests := []struct {
		name string
		cond rules.Condition
		want bool
	}{
		{"contains hit", rules.Condition{Type: rules.Contains, Field: "command", Substring: "-rf"}, true},
		{"contains miss", rules.Condition{Type: rules.Contains, Field: "command", Substring: "DROP"}, false},
		{"contains is case sensitive", rules.Condition{Type: rules.Contains, Field: "command", Substring: "RM"}, false},
		{"contains missing field", rules.Condition{Type: rules.Contains, Field: "nope", Substring: "x"}, false},
		{"contains number as string", rules.Condition{Type: rules.Contains, Field: "count", Substring: "3"}, true},
		{"contains bool as string", rules.Condition{Type: rules.Contains, Field: "flag", Substring: "true"}, true},
		{"contains list is not a string", rules.Condition{Type: rules.Contains, Field: "list", Substring: "a"}, false},
		{"contains dotted path", rules.Condition{Type: rules.Contains, Field: "nested.inner.value", Substring: "deep"}, true},
		{"contains dotted path into list", rules.Condition{Type: rules.Contains, Field: "edits.1.new_string", Substring: "second"}, true},
		{"contains dotted path out of range", rules.Condition{Type: rules.Contains, Field: "edits.5.new_string", Substring: "x"}, false},
		{"contains literal dotted key first", rules.Condition{Type: rules.Contains, Field: "dotted.key", Substring: "literal"}, true},
		{"contains path falls back to file_path, cleaned", rules.Condition{Type: rules.Contains, Field: "path", Substring: "/repo/src/a.go"}, true},
		{"matches hit", rules.Condition{Type: rules.Matches, Field: "command", Pattern: `^rm\s+-rf\b`}, true},
		{"matches miss", rules.Condition{Type: rules.Matches, Field: "command", Pattern: `^ls`}, false},
		{"matches missing field", rules.Condition{Type: rules.Matches, Field: "nope", Pattern: `.*`}, false},
		{"matches number", rules.Condition{Type: rules.Matches, Field: "count", Pattern: `^3$`}, true},
		{"not_in value outside", rules.Condition{Type: rules.NotIn, Field: "command", Values: []string{"ls", "pwd"}}, true},
		{"not_in value inside", rules.Condition{Type: rules.NotIn, Field: "command", Values: []string{"rm -rf /tmp/x"}}, false},
		{"not_in missing field does not hold", rules.Condition{Type: rules.NotIn, Field: "nope", Values: []string{"x"}}, false},
		{"expr true", rules.Condition{Type: rules.Expr, Expr: "call.args.count > 2.0 && call.tool == 'Bash'"}, true},
		{"expr false", rules.Condition{Type: rules.Expr, Expr: "'missing' in call.args"}, false},
		{"expr dyn result", rules.Condition{Type: rules.Expr, Expr: "call.args.flag"}, true},
		{"expr call.path", rules.Condition{Type: rules.Expr, Expr: "call.path == '/repo/src/a.go'"}, true},
		{"expr families", rules.Condition{Type: rules.Expr, Expr: "call.families == ['bash']"}, true},
		{"expr index", rules.Condition{Type: rules.Expr, Expr: "call.index == 0"}, true},
		{"expr strings extension", rules.Condition{Type: rules.Expr, Expr: "call.args.command.upperAscii().startsWith('RM')"}, true},
		{"expr optional field", rules.Condition{Type: rules.Expr, Expr: "call.args.?nope.orValue('none') == 'none'"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.cond
			e := mustCompile(t, rule("r", "Bash", rules.Warn, &c))
			v := e.Evaluate(rules.Pre, rules.Call{Tool: "Bash", Args: args}, nil)
			if len(v.Errors) > 0 {
				t.Fatalf("errors: %v", v.Errors)
			}
			if got := len(v.Fired) == 1; got != tt.want {
				t.Errorf("fired = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestTriggers(t *testing.T) {
	e := mustCompile(t,
		rule("by_tool", "Edit", rules.Warn, nil),
		rule("by_family", "edit", rules.Warn, nil),
		rule("everything", "*", rules.Warn, nil),
		rule("deploy", "Deploy", rules.Warn, nil),
		rule("unknown_tool", "NoSuchTool", rules.Warn, nil),
	)
	tests := []struct {
		tool string
		want []string
	}{
		{"Edit", []string{"by_family", "by_tool", "everything"}},
		{"write_file", []string{"by_family", "everything"}},
		{"Read", []string{"everything"}},
		{"SomethingElse", []string{"everything"}},
		{"Deploy", []string{"deploy", "everything"}},         // the tool named like the family
		{"deploy_staging", []string{"deploy", "everything"}}, // a tool of the family
		{"edit", []string{"by_family", "everything"}},        // a tool named like a family matches it
	}
	for _, tt := range tests {
		v := e.Evaluate(rules.Pre, rules.Call{Tool: tt.tool}, nil)
		if diff := cmp.Diff(tt.want, fired(v)); diff != "" {
			t.Errorf("%s: fired (-want +got):\n%s", tt.tool, diff)
		}
	}
}

func TestPhasesAndOrder(t *testing.T) {
	e := mustCompile(t,
		rule("c_remind", "*", rules.Remind, nil),
		rule("b_block", "Bash", rules.Block, nil),
		rule("a_warn", "Bash", rules.Warn, nil),
		rule("d_block_other", "Edit", rules.Block, nil),
	)
	s := &rules.Session{}
	call := rules.Call{Tool: "Bash", Args: map[string]any{"command": "ls"}}
	pre := e.Evaluate(rules.Pre, call, s)
	want := rules.Verdict{Phase: rules.Pre, Decision: rules.Blocked, Fired: []rules.Firing{
		{Rule: "a_warn", Action: rules.Warn, Message: "a_warn fired"},
		{Rule: "b_block", Action: rules.Block, Message: "b_block fired"},
	}}
	if diff := cmp.Diff(want, pre, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("pre (-want +got):\n%s", diff)
	}
	call.Result = "file.txt"
	post := e.Evaluate(rules.Post, call, s)
	want = rules.Verdict{Phase: rules.Post, Decision: rules.Allowed, Fired: []rules.Firing{
		{Rule: "c_remind", Action: rules.Remind, Message: "c_remind fired"},
	}}
	if diff := cmp.Diff(want, post, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("post (-want +got):\n%s", diff)
	}
	if s.Len() != 0 {
		t.Errorf("Evaluate recorded the call: session has %d calls", s.Len())
	}

	bad := e.Evaluate("during", call, s)
	if len(bad.Errors) != 1 || !strings.Contains(bad.Errors[0].Error, `unknown phase "during"`) {
		t.Errorf("unknown phase: %+v", bad)
	}
}

func TestVerdictJSON(t *testing.T) {
	e := mustCompile(t, rule("x", "Bash", rules.Warn, &rules.Condition{Type: rules.Expr, Expr: "call.args.nope == 1"}))
	v := e.Evaluate(rules.Pre, rules.Call{Tool: "Read"}, nil)
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"phase":"pre","decision":"allow","fired":[],"errors":[]}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	v = e.Evaluate(rules.Pre, rules.Call{Tool: "Bash"}, nil)
	b, _ = json.Marshal(v)
	if got, want := string(b), `{"phase":"pre","decision":"allow","fired":[],"errors":[{"rule":"x","error":"no such key: nope"}]}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestCooldownAndEnabled(t *testing.T) {
	cool := rule("cool", "*", rules.Warn, nil)
	cool.Cooldown = 2
	off := rule("off", "*", rules.Block, nil)
	off.Enabled = false
	e := mustCompile(t, cool, off)
	s := &rules.Session{}
	var got []bool
	for i := range 7 {
		c := rules.Call{Tool: "Read", Args: map[string]any{"i": float64(i)}}
		v := e.Evaluate(rules.Pre, c, s)
		if v.Decision != rules.Allowed {
			t.Fatalf("call %d: a disabled block rule fired: %+v", i, v)
		}
		got = append(got, len(v.Fired) == 1)
		s.Record(c)
	}
	// Fires, quiet for the next two calls, fires again.
	want := []bool{true, false, false, true, false, false, true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fired per call (-want +got):\n%s", diff)
	}
	if i, ok := s.LastFired("cool"); !ok || i != 6 {
		t.Errorf("LastFired = %d, %v; want 6, true", i, ok)
	}
}

func TestRuntimeErrorOtherRulesRun(t *testing.T) {
	e := mustCompile(t,
		rule("a_errs", "*", rules.Block, &rules.Condition{Type: rules.Expr, Expr: "call.args.file_path.startsWith('/etc')"}),
		rule("b_fine", "*", rules.Warn, nil),
		rule("c_wrong_type", "*", rules.Warn, &rules.Condition{Type: rules.Expr, Expr: "call.args.n"}),
		rule("d_bad_arg", "*", rules.Warn, &rules.Condition{Type: rules.Expr, Expr: "session.count(call.args.n) > 0"}),
		rule("e_bad_index", "*", rules.Warn, &rules.Condition{Type: rules.Expr, Expr: "session.call(5).tool == 'x'"}),
		rule("f_bad_pattern", "*", rules.Warn, &rules.Condition{Type: rules.Expr, Expr: "session.lastMatch('Bash', 'command', call.args.p) > 0"}),
	)
	s := &rules.Session{}
	s.Record(rules.Call{Tool: "Bash", Args: map[string]any{"command": "ls"}})
	v := e.Evaluate(rules.Pre, rules.Call{Tool: "Read", Args: map[string]any{"n": 1.0, "p": "("}}, s)
	if diff := cmp.Diff([]string{rules.FailClosedRule, "b_fine"}, fired(v)); diff != "" {
		t.Errorf("fired (-want +got):\n%s", diff)
	}
	if v.Decision != rules.Blocked {
		t.Errorf("decision = %s; an errored block rule denies the call (fail closed)", v.Decision)
	}
	var errored []string
	for _, re := range v.Errors {
		errored = append(errored, re.Rule)
		if re.Error == "" {
			t.Errorf("rule %s: empty error", re.Rule)
		}
	}
	if diff := cmp.Diff([]string{"a_errs", "c_wrong_type", "d_bad_arg", "e_bad_index", "f_bad_pattern"}, errored); diff != "" {
		t.Errorf("errored (-want +got):\n%s\n%+v", diff, v.Errors)
	}
}

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		name  string
		rule  rules.Rule
		field string
		msg   string // substring of the message
		line  int
	}{
		{"bad regex", rule("r", "Bash", rules.Warn, &rules.Condition{Type: rules.Matches, Field: "command", Pattern: "(unclosed"}),
			"condition.pattern", "does not compile", 0},
		{"cel does not type-check", rule("r", "Bash", rules.Warn, &rules.Condition{Type: rules.Expr, Expr: "session.cout('edit') > 1"}),
			"condition.expr", "does not type-check", 1},
		{"cel undeclared variable", rule("r", "Bash", rules.Warn, &rules.Condition{Type: rules.Expr, Expr: "true &&\n  sesion.size() > 1"}),
			"condition.expr", "undeclared reference to 'sesion'", 2},
		{"cel does not parse", rule("r", "Bash", rules.Warn, &rules.Condition{Type: rules.Expr, Expr: "call.tool == "}),
			"condition.expr", "does not parse", 1},
		{"cel not bool", rule("r", "Bash", rules.Warn, &rules.Condition{Type: rules.Expr, Expr: "session.count('edit')"}),
			"condition.expr", "yields int, not bool", 1},
		{"cel literal lastMatch pattern", rule("r", "Bash", rules.Warn, &rules.Condition{Type: rules.Expr, Expr: "session.lastMatch('bash', 'command', '(') > 0"}),
			"condition.expr", `pattern "(" does not compile`, 1},
		{"cel literal matches pattern", rule("r", "Bash", rules.Warn, &rules.Condition{Type: rules.Expr, Expr: "call.tool.matches('(')"}),
			"condition.expr", "cannot run", 1},
		{"old list-style session", rule("r", "Bash", rules.Warn, &rules.Condition{Type: rules.Expr, Expr: "session.exists(c, c.tool == 'Read')"}),
			"condition.expr", "does not type-check", 1},
		{"unknown action", rule("r", "Bash", "deny", nil), "action", `unknown action "deny"; use block, ask, warn or remind`, 0},
		{"missing action", rule("r", "Bash", "", nil), "action", "no action", 0},
		{"missing trigger", rule("r", "", rules.Warn, nil), "trigger", `"*" for every call`, 0},
		{"negative cooldown", rules.Rule{ID: "r", Trigger: "*", Action: rules.Warn, Cooldown: -1}, "cooldown", "0 or a positive", 0},
		{"unknown condition type", rule("r", "Bash", rules.Warn, &rules.Condition{Type: "regex", Field: "command"}),
			"condition.type", `unknown condition type "regex"; use contains, matches, not_in or expr`, 0},
		{"condition without type", rule("r", "Bash", rules.Warn, &rules.Condition{Field: "command"}),
			"condition.type", "no type", 0},
		{"condition missing field", rule("r", "Bash", rules.Warn, &rules.Condition{Type: rules.Contains, Substring: "x"}),
			"condition.field", "needs field", 0},
		{"contains missing substring", rule("r", "Bash", rules.Warn, &rules.Condition{Type: rules.Contains, Field: "command"}),
			"condition.substring", "non-empty substring", 0},
		{"not_in without values", rule("r", "Bash", rules.Warn, &rules.Condition{Type: rules.NotIn, Field: "command"}),
			"condition.values", "at least one value", 0},
		{"field that does not apply", rule("r", "Bash", rules.Warn, &rules.Condition{Type: rules.Contains, Field: "command", Substring: "x", Pattern: "y"}),
			"condition.pattern", "does not apply to contains conditions", 0},
		{"expr with field", rule("r", "Bash", rules.Warn, &rules.Condition{Type: rules.Expr, Field: "command", Expr: "true"}),
			"condition.field", "does not apply to expr conditions", 0},
		{"empty expr", rule("r", "Bash", rules.Warn, &rules.Condition{Type: rules.Expr}),
			"condition.expr", "needs expr", 0},
		{"empty id", rule("", "Bash", rules.Warn, nil), "id", "no id", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := rules.Compile(rules.Profile{Name: "p", Rules: []rules.Rule{tt.rule}})
			if err == nil {
				t.Fatal("Compile succeeded")
			}
			var ce *rules.CheckError
			if !errors.As(err, &ce) {
				t.Fatalf("not a *CheckError: %v", err)
			}
			if ce.Rule != tt.rule.ID || ce.Field != tt.field || !strings.Contains(ce.Msg, tt.msg) || ce.Line != tt.line {
				t.Errorf("got rule %q field %q line %d msg %q\nwant rule %q field %q line %d msg containing %q",
					ce.Rule, ce.Field, ce.Line, ce.Msg, tt.rule.ID, tt.field, tt.line, tt.msg)
			}
			if tt.rule.ID != "" && !strings.Contains(err.Error(), `rule "r": `+tt.field) {
				t.Errorf("error does not name the rule and field: %v", err)
			}
			// CheckRule finds the same problem.
			if err := rules.CheckRule(tt.rule); err == nil || !errors.As(err, &ce) || ce.Field != tt.field {
				t.Errorf("CheckRule: %v", err)
			}
			// CheckCondition finds a condition's problem without the rule.
			if strings.HasPrefix(tt.field, "condition.") {
				err := rules.CheckCondition(*tt.rule.Condition)
				if err == nil || !errors.As(err, &ce) || ce.Field != tt.field || ce.Rule != "" {
					t.Errorf("CheckCondition: %v", err)
				}
			}
		})
	}
}

func TestCompileProfileErrors(t *testing.T) {
	_, err := rules.Compile(rules.Profile{
		Name:         "p",
		ToolFamilies: map[string][]string{"edit": {"Edit", ""}},
		Rules: []rules.Rule{
			rule("dup", "*", rules.Warn, nil),
			rule("dup", "*", rules.Block, nil),
			rule("bad", "*", "nope", &rules.Condition{Type: rules.Matches, Field: "x", Pattern: "["}),
		},
	})
	if err == nil {
		t.Fatal("Compile succeeded")
	}
	want := `profile p: 4 problems
	tool_families.edit: a tool name is empty; list the tools' names, e.g. ["Edit", "write_file"]
	rule "bad": action: unknown action "nope"; use block, ask, warn or remind
	rule "bad": condition.pattern: the pattern does not compile: error parsing regexp: missing closing ]: ` + "`[`" + `; write an RE2 regular expression (Go regexp syntax: no lookaround or backreferences)
	rule "dup": id: the rule is defined twice; give each rule its own id`
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("error (-want +got):\n%s", diff)
	}
	if err := rules.CheckCondition(rules.Condition{Type: rules.Expr, Expr: "size(session) > 3"}); err != nil {
		t.Errorf("CheckCondition of a good expression: %v", err)
	}
}

func TestDisabledRuleStillChecked(t *testing.T) {
	r := rule("r", "*", rules.Warn, &rules.Condition{Type: rules.Expr, Expr: "nope"})
	r.Enabled = false
	if _, err := rules.Compile(rules.Profile{Rules: []rules.Rule{r}}); err == nil {
		t.Error("a disabled rule with a bad expression compiled")
	}
}

func TestDecodeProfile(t *testing.T) {
	const src = `{"name":"p","tool_families":{"edit":["Edit"]},"rules":[
		{"id":"b","trigger":"edit","action":"warn","message":"m"},
		{"id":"a","trigger":"*","action":"remind","rule":"text only","enabled":false,"cooldown":2,
		 "condition":{"type":"expr","expr":"size(session) > 1"}}]}`
	p, err := rules.DecodeProfile(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	want := rules.Profile{Name: "p", ToolFamilies: map[string][]string{"edit": {"Edit"}}, Rules: []rules.Rule{
		{ID: "b", Trigger: "edit", Action: rules.Warn, Message: "m", Enabled: true},
		{ID: "a", Trigger: "*", Action: rules.Remind, Text: "text only", Cooldown: 2,
			Condition: &rules.Condition{Type: rules.Expr, Expr: "size(session) > 1"}},
	}}
	if diff := cmp.Diff(want, p); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	e, err := rules.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "b"}, []string{e.Profile().Rules[0].ID, e.Profile().Rules[1].ID}); diff != "" {
		t.Errorf("rules not sorted by id: %s", diff)
	}
	// Text stands in for an empty message.
	e = mustCompile(t, rules.Rule{ID: "t", Text: "the rule", Trigger: "*", Action: rules.Warn, Enabled: true})
	if v := e.Evaluate(rules.Pre, rules.Call{Tool: "x"}, nil); v.Fired[0].Message != "the rule" {
		t.Errorf("message = %q", v.Fired[0].Message)
	}

	for _, bad := range []string{
		`{"name":"p","rules":[{"id":"a","trigger":"*","action":"warn","actoin":"block"}]}`,
		`{"name":"p","rulez":[]}`,
		`{"name":"p"} {"name":"q"}`,
		`not json`,
	} {
		if _, err := rules.DecodeProfile(strings.NewReader(bad)); err == nil {
			t.Errorf("DecodeProfile(%s) succeeded", bad)
		}
	}
}

func TestCostLimit(t *testing.T) {
	// A quadratic comprehension over a huge list stops at the cost limit
	// and errors; it does not run for minutes.
	e := mustCompile(t, rule("quadratic", "*", rules.Warn, &rules.Condition{Type: rules.Expr,
		Expr: "call.args.l.all(x, call.args.l.all(y, x == y || x != y))"}))
	l := make([]any, 20000)
	for i := range l {
		l[i] = float64(i)
	}
	v := e.Evaluate(rules.Pre, rules.Call{Tool: "x", Args: map[string]any{"l": l}}, nil)
	if len(v.Errors) != 1 || !strings.Contains(v.Errors[0].Error, "cost limit") {
		t.Errorf("verdict: %+v", v)
	}
}

// TestConcurrentEvaluate runs one engine on several sessions at once (run
// with -race).
func TestConcurrentEvaluate(t *testing.T) {
	e := builtinEngine(t, "coding")
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			s := &rules.Session{}
			for i := range 50 {
				c := rules.Call{Tool: "Bash", Args: map[string]any{"command": fmt.Sprintf("pytest -k t%d_%d", w, i)}}
				if i%3 == 0 {
					c = rules.Call{Tool: "Edit", Args: map[string]any{"file_path": fmt.Sprint("/f", i), "new_string": "x"}}
				}
				if v := e.Evaluate(rules.Pre, c, s); v.Decision == rules.Allowed {
					e.Evaluate(rules.Post, c, s)
					s.Record(c)
				}
			}
		})
	}
	wg.Wait()
}
