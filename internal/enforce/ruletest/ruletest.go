// Package ruletest runs the rule-profile tests a repository declares
// (tests:) through the rule engine, against the compiled profiles of one
// revision and, optionally, of another, listing the calls whose verdict
// changed between them.
package ruletest

import (
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/rules"
)

// Run is one test's outcome.
type Run struct {
	Name     string            `json:"name"`
	Profile  string            `json:"profile"`
	Passed   bool              `json:"passed"`
	Error    string            `json:"error,omitempty"`
	Result   *rules.TestResult `json:"result,omitempty"`
	Duration time.Duration     `json:"-"`
	Changed  []Change          `json:"changed,omitempty"`
}

// Change is a call whose fired rules differ on another revision. A Call
// of -1 says the tests could not run there: Tool holds why.
type Change struct {
	Call  int          `json:"call"`
	Tool  string       `json:"tool"`
	Here  []rules.Fire `json:"here"`
	There []rules.Fire `json:"there"`
}

// Options select and compare the tests RunAll runs.
type Options struct {
	// Std runs the standard library's tests too.
	Std bool
	// Filter, when set, runs only the tests whose names it matches.
	Filter *regexp.Regexp
	// Against, when set, is another revision's program to run the same
	// tests on; AgainstName is what messages call it.
	Against     *compiler.Program
	AgainstName string
}

// RunAll runs prog's tests, in name order.
func RunAll(prog *compiler.Program, opts Options) []Run {
	cfg := prog.Config
	engines, thereEngines := map[string]*rules.Engine{}, map[string]*rules.Engine{}
	var runs []Run
	for _, name := range model.Sorted(cfg.Tests) {
		if cfg.Builtin["tests."+name] && !opts.Std {
			continue
		}
		if opts.Filter != nil && !opts.Filter.MatchString(name) {
			continue
		}
		t := cfg.Tests[name]
		start := time.Now()
		run := Run{Name: name, Profile: testProfile(cfg, t)}
		e, err := engineFor(engines, prog, run.Profile, t.Agent, "")
		if err != nil {
			run.Error = err.Error()
			runs = append(runs, run)
			continue
		}
		calls, expect := testInput(t)
		res := rules.RunTest(e, calls, expect)
		if !res.Passed && t.Agent == "" {
			res.Failures = append(res.Failures, runtimeNameHints(cfg, calls, res.Failures)...)
		}
		run.Result, run.Passed = &res, res.Passed
		if opts.Against != nil {
			if te, err := engineFor(thereEngines, opts.Against, run.Profile, t.Agent, opts.AgainstName); err != nil {
				run.Changed = []Change{{Call: -1, Tool: err.Error()}}
			} else {
				run.Changed = compareVerdicts(res, rules.RunTest(te, calls, expect))
			}
		}
		run.Duration = time.Since(start)
		runs = append(runs, run)
	}

	return runs
}

// runtimeNameHints explains a failing call named as a runtime names a
// tool (Claude Code's Bash for run_bash): without an agent there is no
// runtime to map it, so rules on charter's tool do not see it.
func runtimeNameHints(cfg *model.Config, calls []rules.Call, failures []rules.TestFailure) []rules.TestFailure {
	var out []rules.TestFailure
	for i, c := range calls {
		if !slices.ContainsFunc(failures, func(f rules.TestFailure) bool { return f.Call == i }) {
			continue
		}
		for _, rt := range model.Sorted(cfg.Runtimes) {
			if tool := cfg.Runtimes[rt].Tools[c.Tool]; tool != "" && tool != c.Tool {
				out = append(out, rules.TestFailure{Call: i, Message: fmt.Sprintf("call %d: %s is runtime %s's name for %s; a test without an agent judges the tool as named, so rules on %s do not see it: name the call %s, or give the test an agent", i, c.Tool, rt, tool, tool, tool)})
				break
			}
		}
	}
	return out
}

// Failed counts the runs that did not pass.
func Failed(runs []Run) int {
	n := 0
	for _, r := range runs {
		if !r.Passed {
			n++
		}
	}
	return n
}

// testProfile is the profile a test exercises: its own, or its agent's.
func testProfile(cfg *model.Config, t *model.Test) string {
	if t.Profile != "" {
		return t.Profile
	}
	if a, ok := cfg.Agents[t.Agent]; ok {
		return a.Profile
	}
	return ""
}

// engineFor compiles (once) the engine of a profile of prog; with agent,
// the agent's engine: its profile behind its gate (what it may call, and
// the limits its behaviors put on the calls), as eval and the hook judge
// its calls.
func engineFor(cache map[string]*rules.Engine, prog *compiler.Program, name, agent, where string) (*rules.Engine, error) {
	key := name
	if agent != "" {
		key = "agent " + agent
	}
	if e, ok := cache[key]; ok {
		return e, nil
	}
	p, ok := prog.Profiles[name]
	if !ok {
		if where != "" {
			return nil, fmt.Errorf("profile %q does not exist at %s", name, where)
		}
		return nil, fmt.Errorf("no profile to test: name a profile, or an agent that has one")
	}
	e, err := rules.Compile(*p)
	if err != nil {
		return nil, err
	}
	if agent != "" {
		for _, a := range prog.Agents {
			if a.ID != agent {
				continue
			}
			_, doc, err := bundle.AgentProfile(prog, a)
			if err != nil {
				return nil, err
			}
			gate, err := rules.ReadGate(doc, "")
			if err != nil {
				return nil, err
			}
			ids := make([]string, len(prog.Agents))
			for i, a := range prog.Agents {
				ids[i] = a.ID
			}
			gate.Roster = rules.NewAgents(ids)
			e.SetGate(gate)
		}
	}
	cache[key] = e
	return e, nil
}

func testInput(t *model.Test) ([]rules.Call, []rules.Expectation) {
	var calls []rules.Call
	for _, c := range t.Calls {
		calls = append(calls, rules.Call{Tool: c.Tool, Args: c.Args, Result: c.Result})
	}
	var expect []rules.Expectation
	for _, e := range t.Expect {
		x := rules.Expectation{Call: e.Call}
		for _, f := range e.Fires {
			x.Fires = append(x.Fires, rules.Fire{Rule: f.Rule, Action: rules.Action(f.Action)})
		}
		expect = append(expect, x)
	}
	return calls, expect
}

// compareVerdicts lists the calls whose fired rules differ.
func compareVerdicts(here, there rules.TestResult) []Change {
	var out []Change
	for i := range min(len(here.Calls), len(there.Calls)) {
		h, t := here.Calls[i], there.Calls[i]
		if !slices.Equal(h.Fired, t.Fired) {
			out = append(out, Change{Call: h.Call, Tool: h.Tool, Here: h.Fired, There: t.Fired})
		}
	}
	return out
}

// Fires says which rules fired, for people: "nothing fires" or the rules
// with their actions.
func Fires(fs []rules.Fire) string {
	if len(fs) == 0 {
		return "nothing fires"
	}
	var s []string
	for _, f := range fs {
		s = append(s, f.String())
	}
	return strings.Join(s, ", ")
}

// WriteJUnit writes runs as a JUnit report (diag.WriteJUnitReport): one
// suite, "charter test", with a case per test in the order given,
// classname "charter.test.PROFILE" (or "charter.test" when there is no
// profile), a failed test's verdicts as its failure (the first line its
// message), a test that could not run as an error, and with against (the
// other revision charter test compared) each verdict that changed there as
// its output.
func WriteJUnit(w io.Writer, runs []Run, against string) error {
	return diag.WriteJUnitReport(w, "charter test", reportCases(runs, against))
}

func reportCases(runs []Run, against string) []diag.JUnitCase {
	cases := make([]diag.JUnitCase, 0, len(runs))
	for _, r := range runs {
		c := diag.JUnitCase{Classname: "charter.test", Name: r.Name, Seconds: new(r.Duration.Seconds())}
		if r.Profile != "" {
			c.Classname += "." + r.Profile
		}
		switch {
		case r.Error != "":
			c.Error = &diag.JUnitProblem{Message: firstLine(r.Error), Type: "error", Text: r.Error}
		case !r.Passed:
			failure := r.Result.String()
			c.Failure = &diag.JUnitProblem{Message: firstLine(failure), Type: "failure", Text: failure}
		}
		var out []string
		for _, ch := range r.Changed {
			if ch.Call < 0 {
				out = append(out, fmt.Sprintf("against %s: %s", against, ch.Tool))
				continue
			}
			out = append(out, fmt.Sprintf("changed against %s: call %d (%s): here %s, at %s %s", against, ch.Call, ch.Tool, Fires(ch.Here), against, Fires(ch.There)))
		}
		c.Output = strings.Join(out, "\n")
		cases = append(cases, c)
	}
	return cases
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
