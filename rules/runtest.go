package rules

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Expectation names a call of a test (its index in the test's calls, from
// 0) and every rule that must fire on it, in either phase; no other rule may
// fire on that call. Calls without an expectation are not checked.
type Expectation struct {
	// Call is the index of the call in the test, from 0.
	Call int `json:"call"`
	// Fires lists every rule that must fire on the call.
	Fires []Fire `json:"fires"`
}

// Fire is one rule firing with one action.
type Fire struct {
	// Rule is the rule's id.
	Rule string `json:"rule"`
	// Action is the action it fires with.
	Action Action `json:"action"`
}

// String returns "RULE (ACTION)", for people: characters that would act
// on a terminal are escaped (printable).
func (f Fire) String() string { return printable(f.Rule) + " (" + printable(string(f.Action)) + ")" }

func compareFire(a, b Fire) int {
	return cmp.Or(cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Action, b.Action))
}

// CallOutcome is what the engine did with one call of a test.
type CallOutcome struct {
	// Call is the call's index in the test.
	Call int `json:"call"`
	// Tool is the call's tool.
	Tool string `json:"tool"`
	// Blocked is true when a block rule fired, or an ask rule (no user
	// approves in a test): the call did not run, did not enter the
	// session, and phase Post was not evaluated.
	Blocked bool `json:"blocked"`
	// Fired lists the rules that fired in either phase, sorted.
	Fired []Fire `json:"fired"`
	// Errors lists the rules that could not be evaluated on the call.
	Errors []RuleError `json:"errors,omitempty"`
}

// TestFailure is one way a test did not go as expected.
type TestFailure struct {
	// Call is the index of the call concerned, or -1 when the failure is
	// about the test itself.
	Call int `json:"call"`
	// Message describes the failure in one or more lines.
	Message string `json:"message"`
}

// TestResult is the outcome of RunTest.
type TestResult struct {
	// Passed is true when every expectation held and no rule errored.
	Passed bool `json:"passed"`
	// Calls holds the outcome of every call, in order; a runtime compares
	// them between two profiles to list the verdicts that changed.
	Calls []CallOutcome `json:"calls"`
	// Failures lists what went wrong, by call.
	Failures []TestFailure `json:"failures,omitempty"`
}

// String describes the failures, go test style, one per line group:
//
//	call 3 (Edit): fired [verify_after_edit (remind)], want [read_before_edit (warn), verify_after_edit (remind)]
//	    missing: read_before_edit (warn)
//
// and "ok" when the test passed.
func (r TestResult) String() string {
	if r.Passed {
		return "ok"
	}
	var b strings.Builder
	for i, f := range r.Failures {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(f.Message)
	}
	return b.String()
}

// RunTest plays calls through the engine as a runtime would, starting from
// an empty session: for each call, phase Pre without its result; unless
// blocked, phase Post with its result, then Session.Record. It checks the
// rules that fired on each call against expect, and fails on any rule that
// errored.
func RunTest(e *Engine, calls []Call, expect []Expectation) TestResult {
	res := TestResult{Passed: true, Calls: make([]CallOutcome, len(calls))}
	fail := func(call int, format string, args ...any) {
		res.Passed = false
		res.Failures = append(res.Failures, TestFailure{Call: call, Message: fmt.Sprintf(format, args...)})
	}

	want := make(map[int][]Fire, len(expect))
	for _, x := range expect {
		if x.Call < 0 || x.Call >= len(calls) {
			if len(calls) == 0 {
				fail(-1, "expectation for call %d: the test has no calls", x.Call)
			} else {
				fail(-1, "expectation for call %d: the test has %d calls (0 to %d)", x.Call, len(calls), len(calls)-1)
			}
			continue
		}
		if _, dup := want[x.Call]; dup {
			fail(x.Call, "call %d is expected twice; merge its expectations into one", x.Call)
			continue
		}
		fires := slices.Clone(x.Fires)
		slices.SortFunc(fires, compareFire)
		want[x.Call] = slices.CompactFunc(fires, func(a, b Fire) bool { return compareFire(a, b) == 0 })
	}

	var s Session
	for i, c := range calls {
		out := CallOutcome{Call: i, Tool: c.Tool, Fired: []Fire{}}
		pre := e.Evaluate(Pre, Call{Tool: c.Tool, Args: c.Args}, &s)
		collect(&out, pre)
		if pre.Decision == Blocked || pre.Decision == Asked {
			// No user approves in a test: an asked call does not run.
			out.Blocked = true
		} else {
			post := e.Evaluate(Post, c, &s)
			collect(&out, post)
			s.Record(c)
		}
		slices.SortFunc(out.Fired, compareFire)
		res.Calls[i] = out
	}

	// Report failures in call order.
	for i, out := range res.Calls {
		for _, re := range out.Errors {
			fail(i, "call %d (%s): rule %s errored: %s", i, printable(out.Tool), printable(re.Rule), printable(re.Error))
		}
		w, ok := want[i]
		if !ok {
			continue
		}
		if slices.Equal(w, out.Fired) {
			continue
		}
		var msg strings.Builder
		fmt.Fprintf(&msg, "call %d (%s): fired %s, want %s", i, printable(out.Tool), fireList(out.Fired), fireList(w))
		if missing := subtract(w, out.Fired); len(missing) > 0 {
			fmt.Fprintf(&msg, "\n    missing: %s", strings.Join(fireStrings(missing), ", "))
		}
		if extra := subtract(out.Fired, w); len(extra) > 0 {
			fmt.Fprintf(&msg, "\n    unexpected: %s", strings.Join(fireStrings(extra), ", "))
		}
		if out.Blocked {
			msg.WriteString("\n    (the call was blocked or asked about: it did not run, and remind rules were not evaluated)")
		}
		fail(i, "%s", msg.String())
	}
	return res
}

func collect(out *CallOutcome, v Verdict) {
	for _, f := range v.Fired {
		out.Fired = append(out.Fired, Fire{Rule: f.Rule, Action: f.Action})
	}
	out.Errors = append(out.Errors, v.Errors...)
}

func fireStrings(fs []Fire) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.String()
	}
	return out
}

func fireList(fs []Fire) string {
	if len(fs) == 0 {
		return "nothing"
	}
	return "[" + strings.Join(fireStrings(fs), ", ") + "]"
}

// subtract returns the fires of a (sorted) that are not in b (sorted).
func subtract(a, b []Fire) []Fire {
	var out []Fire
	for _, f := range a {
		if _, found := slices.BinarySearchFunc(b, f, compareFire); !found {
			out = append(out, f)
		}
	}
	return out
}
