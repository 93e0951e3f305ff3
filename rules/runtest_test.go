package rules_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/rules"
)

// TestRecordedSession plays a recorded coding session through the built-in
// coding profile (dev + coding), as a runtime would.
func TestRecordedSession(t *testing.T) {
	e := builtinEngine(t, "coding")
	edit := func(n int) rules.Call {
		return rules.Call{Tool: "Edit", Args: map[string]any{
			"file_path":  "/repo/calc.py",
			"old_string": fmt.Sprintf("return a + %d", n),
			"new_string": fmt.Sprintf("return a + %d", n+1),
		}, Result: "ok"}
	}
	type step struct {
		call rules.Call
		pre  []rules.Firing
		post []rules.Firing
	}
	steps := []step{
		// 0: Edit without a Read: read_before_edit warns; verify_after_edit
		// reminds after the call.
		{call: edit(0),
			pre:  []rules.Firing{{Rule: "read_before_edit", Action: rules.Warn, Message: "You are editing a file you have not read in this session. Call Read first."}},
			post: []rules.Firing{{Rule: "verify_after_edit", Action: rules.Remind, Message: "Read the file you just edited to verify the change is what you intended."}}},
		// 1: rm -rf / is asked about; declined, it does not enter the
		// session.
		{call: rules.Call{Tool: "Bash", Args: map[string]any{"command": "rm -rf /"}},
			pre: []rules.Firing{{Rule: "confirm_destructive", Action: rules.Ask, Message: "This command destroys data. Ask the user for explicit approval before running it."}}},
		// 2: the agent reads the file now.
		{call: rules.Call{Tool: "Read", Args: map[string]any{"file_path": "/repo/calc.py"}, Result: "def add(a, b):\n    return a + 1\n"}},
		// 3-5: more edits, the file read. The blocked call took no place in
		// the session, so verify_after_edit (fired on session index 0, quiet
		// for two calls) fires again on session index 3: step 4.
		{call: edit(1)},
		{call: edit(2), post: []rules.Firing{{Rule: "verify_after_edit", Action: rules.Remind, Message: "Read the file you just edited to verify the change is what you intended."}}},
		{call: edit(3)},
		// 6: the fifth edit without a test run reminds to run the tests (and
		// delegate_complex: six calls without a sub-agent).
		{call: edit(4), post: []rules.Firing{
			{Rule: "delegate_complex", Action: rules.Remind, Message: "This task has taken five or more tool calls. Consider dispatching it to a sub-agent with Agent()."},
			{Rule: "test_after_changes", Action: rules.Remind, Message: "You have made five or more edits without running the tests. Run them now."},
		}},
	}
	s := &rules.Session{}
	for i, st := range steps {
		pre := e.Evaluate(rules.Pre, rules.Call{Tool: st.call.Tool, Args: st.call.Args}, s)
		if diff := cmp.Diff(st.pre, pre.Fired); diff != "" || len(pre.Errors) > 0 {
			t.Errorf("call %d pre (-want +got):\n%s%v", i, diff, pre.Errors)
		}
		if pre.Decision != rules.Allowed {
			if st.post != nil {
				t.Fatalf("call %d: blocked, but the test expects reminders", i)
			}
			continue
		}
		post := e.Evaluate(rules.Post, st.call, s)
		if diff := cmp.Diff(st.post, post.Fired); diff != "" || len(post.Errors) > 0 {
			t.Errorf("call %d post (-want +got):\n%s%v", i, diff, post.Errors)
		}
		s.Record(st.call)
	}
	if s.Len() != len(steps)-1 {
		t.Errorf("session has %d calls, want %d (the blocked call is not recorded)", s.Len(), len(steps)-1)
	}
}

func TestRunTestReportsFailures(t *testing.T) {
	e := mustCompile(t,
		rule("warn_bash", "Bash", rules.Warn, nil),
		rule("block_rm", "Bash", rules.Block, &rules.Condition{Type: rules.Contains, Field: "command", Substring: "rm"}),
		rule("remind_bash", "Bash", rules.Remind, nil),
		rule("broken", "Read", rules.Warn, &rules.Condition{Type: rules.Expr, Expr: "call.args.nope == 1"}),
	)
	calls := []rules.Call{
		{Tool: "Bash", Args: map[string]any{"command": "ls"}},
		{Tool: "Bash", Args: map[string]any{"command": "rm x"}},
		{Tool: "Read"},
	}
	res := rules.RunTest(e, calls, []rules.Expectation{
		{Call: 0, Fires: []rules.Fire{{Rule: "warn_bash", Action: rules.Warn}, {Rule: "remind_bash", Action: rules.Remind}}},
		{Call: 1, Fires: []rules.Fire{{Rule: "block_rm", Action: rules.Block}, {Rule: "remind_bash", Action: rules.Remind}}},
		{Call: 7, Fires: nil},
		{Call: 0, Fires: nil},
	})
	if res.Passed {
		t.Fatal("test passed")
	}
	want := `expectation for call 7: the test has 3 calls (0 to 2)
call 0 is expected twice; merge its expectations into one
call 1 (Bash): fired [block_rm (block), warn_bash (warn)], want [block_rm (block), remind_bash (remind)]
    missing: remind_bash (remind)
    unexpected: warn_bash (warn)
    (the call was blocked or asked about: it did not run, and remind rules were not evaluated)
call 2 (Read): rule broken errored: no such key: nope`
	if diff := cmp.Diff(want, res.String()); diff != "" {
		t.Errorf("failure text (-want +got):\n%s", diff)
	}
	wantCalls := []rules.CallOutcome{
		{Call: 0, Tool: "Bash", Fired: []rules.Fire{{Rule: "remind_bash", Action: rules.Remind}, {Rule: "warn_bash", Action: rules.Warn}}},
		{Call: 1, Tool: "Bash", Blocked: true, Fired: []rules.Fire{{Rule: "block_rm", Action: rules.Block}, {Rule: "warn_bash", Action: rules.Warn}}},
		{Call: 2, Tool: "Read", Fired: []rules.Fire{}, Errors: []rules.RuleError{{Rule: "broken", Error: "no such key: nope"}}},
	}
	if diff := cmp.Diff(wantCalls, res.Calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if _, err := json.Marshal(res); err != nil {
		t.Error(err)
	}

	ok := rules.RunTest(e, calls[:1], []rules.Expectation{
		{Call: 0, Fires: []rules.Fire{{Rule: "warn_bash", Action: rules.Warn}, {Rule: "remind_bash", Action: rules.Remind}}},
	})
	if !ok.Passed || ok.String() != "ok" {
		t.Errorf("passing test: %s", ok)
	}
	if !strings.Contains(res.Failures[2].Message, "call 1 (Bash)") || res.Failures[2].Call != 1 {
		t.Errorf("failure 2: %+v", res.Failures[2])
	}
}
