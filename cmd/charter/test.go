package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/model"
	"github.com/charter-dev/charter/rules"
)

type testOptions struct {
	run     string
	verbose bool
	format  string
	against string
	std     bool
}

func newTestCmd(g *globals) *cobra.Command {
	o := &testOptions{}
	cmd := &cobra.Command{
		Use:   "test [--run REGEXP] [-v] [--format text|json|junit] [--against REV]",
		Short: "Run the rule-profile tests declared in the repository",
		Long: `test runs every test declared under tests: in the repository against the
rules engine, as go test runs Go tests: each test replays its recorded
calls through the profile it names (or its agent's profile) and checks that
exactly the expected rules fire, with the expected actions. It prints
--- FAIL lines with what fired and what was expected, then ok or FAIL, and
exits 1 when a test fails. --format json prints every test's outcome as a
JSON array, --format junit as a JUnit XML report for CI test reporters
(docs/output.md).

--std also runs the standard library's tests of every built-in rule.
--against REV runs the same tests on REV's profiles as well and lists
every call whose verdict differs between REV and the working tree: what a
change to a profile does to recorded sessions.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runTests(g, o) },
	}
	cmd.Flags().StringVar(&o.run, "run", "", "run only the tests whose names match this regular expression")
	cmd.Flags().BoolVarP(&o.verbose, "verbose", "v", false, "print every test, not only failures")
	cmd.Flags().StringVar(&o.format, "format", "text", "output format: text, json or junit")
	cmd.Flags().StringVar(&o.against, "against", "", "also run the tests on this revision's profiles and list the verdicts that changed")
	cmd.Flags().BoolVar(&o.std, "std", false, "also run the standard library's tests")
	return cmd
}

// testRun is one test's outcome.
type testRun struct {
	Name     string            `json:"name"`
	Profile  string            `json:"profile"`
	Passed   bool              `json:"passed"`
	Error    string            `json:"error,omitempty"`
	Result   *rules.TestResult `json:"result,omitempty"`
	Duration time.Duration     `json:"-"`
	Changed  []verdictChange   `json:"changed,omitempty"`
}

// verdictChange is a call whose fired rules differ on another revision.
type verdictChange struct {
	Call  int          `json:"call"`
	Tool  string       `json:"tool"`
	Here  []rules.Fire `json:"here"`
	There []rules.Fire `json:"there"`
}

func runTests(g *globals, o *testOptions) error {
	if o.format != "text" && o.format != "json" && o.format != "junit" {
		return usage("unknown format %q; valid formats: text, json, junit", o.format)
	}
	var filter *regexp.Regexp
	if o.run != "" {
		re, err := regexp.Compile(o.run)
		if err != nil {
			return usage("--run %q is not a regular expression: %v", o.run, err)
		}
		filter = re
	}
	l, err := loadWorktree(g)
	if err != nil {
		return err
	}
	c, err := compileLoaded(g, l)
	if err != nil {
		return err
	}
	var there *compiler.Program
	if o.against != "" {
		repo, err := openRepo(g)
		if err != nil {
			return err
		}
		snap, err := snapshot(repo, o.against)
		if err != nil {
			repo.Close()
			return err
		}
		e, err := evaluate(snap.FS, o.against)
		repo.Close()
		if err != nil {
			return err
		}
		if e.prog == nil {
			return errorsAt(g, o.against, e.diags)
		}
		there = e.prog
	}

	cfg := c.Program.Config
	engines, thereEngines := map[string]*rules.Engine{}, map[string]*rules.Engine{}
	var runs []testRun
	for _, name := range model.Sorted(cfg.Tests) {
		if cfg.Builtin["tests."+name] && !o.std {
			continue
		}
		if filter != nil && !filter.MatchString(name) {
			continue
		}
		t := cfg.Tests[name]
		start := time.Now()
		run := testRun{Name: name, Profile: testProfile(cfg, t)}
		e, err := engineFor(engines, c.Program, run.Profile, "")
		if err != nil {
			run.Error = err.Error()
			runs = append(runs, run)
			continue
		}
		calls, expect := testInput(t)
		res := rules.RunTest(e, calls, expect)
		run.Result, run.Passed = &res, res.Passed
		if there != nil {
			if te, err := engineFor(thereEngines, there, run.Profile, o.against); err != nil {
				run.Changed = []verdictChange{{Call: -1, Tool: err.Error()}}
			} else {
				run.Changed = compareVerdicts(res, rules.RunTest(te, calls, expect))
			}
		}
		run.Duration = time.Since(start)
		runs = append(runs, run)
	}

	failed := 0
	for _, r := range runs {
		if !r.Passed {
			failed++
		}
	}
	switch o.format {
	case "json":
		if runs == nil {
			runs = []testRun{}
		}
		if err := writeJSON(g.stdout, runs); err != nil {
			return err
		}
	case "junit":
		if err := rules.WriteJUnit(g.stdout, junitCases(o, runs)); err != nil {
			return err
		}
	default:
		writeTestText(g, o, runs, failed)
	}
	if failed > 0 {
		return findings()
	}
	return nil
}

func junitCases(o *testOptions, runs []testRun) []rules.ReportCase {
	cases := make([]rules.ReportCase, 0, len(runs))
	for _, r := range runs {
		c := rules.ReportCase{Name: r.Name, Profile: r.Profile, Seconds: r.Duration.Seconds(), Error: r.Error}
		if r.Error == "" && !r.Passed {
			c.Failure = r.Result.String()
		}
		var out []string
		for _, ch := range r.Changed {
			if ch.Call < 0 {
				out = append(out, fmt.Sprintf("against %s: %s", o.against, ch.Tool))
				continue
			}
			out = append(out, fmt.Sprintf("changed against %s: call %d (%s): here %s, at %s %s", o.against, ch.Call, ch.Tool, fires(ch.Here), o.against, fires(ch.There)))
		}
		c.Output = strings.Join(out, "\n")
		cases = append(cases, c)
	}
	return cases
}

func writeTestText(g *globals, o *testOptions, runs []testRun, failed int) {
	for _, r := range runs {
		if o.verbose {
			fmt.Fprintf(g.stdout, "=== RUN   %s\n", r.Name)
		}
		secs := r.Duration.Seconds()
		switch {
		case r.Error != "":
			fmt.Fprintf(g.stdout, "--- FAIL: %s (%.2fs)\n    %s\n", r.Name, secs, r.Error)
		case !r.Passed:
			fmt.Fprintf(g.stdout, "--- FAIL: %s (%.2fs)\n", r.Name, secs)
			for _, line := range strings.Split(strings.TrimRight(r.Result.String(), "\n"), "\n") {
				fmt.Fprintf(g.stdout, "    %s\n", line)
			}
		case o.verbose:
			fmt.Fprintf(g.stdout, "--- PASS: %s (%.2fs)\n", r.Name, secs)
		}
		for _, ch := range r.Changed {
			if ch.Call < 0 {
				fmt.Fprintf(g.stdout, "    against %s: %s\n", o.against, ch.Tool)
				continue
			}
			fmt.Fprintf(g.stdout, "    changed against %s: %s call %d (%s): here %s, at %s %s\n",
				o.against, r.Name, ch.Call, ch.Tool, fires(ch.Here), o.against, fires(ch.There))
		}
	}
	switch {
	case len(runs) == 0:
		g.summaryf(g.stdout, "ok\t[no tests to run]\n")
	case failed > 0:
		fmt.Fprintf(g.stdout, "FAIL\t%d of %s failed\n", failed, plural(len(runs), "test"))
	default:
		g.summaryf(g.stdout, "ok\t%s passed\n", plural(len(runs), "test"))
	}
}

func fires(fs []rules.Fire) string {
	if len(fs) == 0 {
		return "nothing fires"
	}
	var s []string
	for _, f := range fs {
		s = append(s, f.String())
	}
	return strings.Join(s, ", ")
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

// engineFor compiles (once) the engine of a profile of prog.
func engineFor(cache map[string]*rules.Engine, prog *compiler.Program, name, where string) (*rules.Engine, error) {
	if e, ok := cache[name]; ok {
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
	cache[name] = e
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
func compareVerdicts(here, there rules.TestResult) []verdictChange {
	var out []verdictChange
	for i := range min(len(here.Calls), len(there.Calls)) {
		h, t := here.Calls[i], there.Calls[i]
		if !slices.Equal(h.Fired, t.Fired) {
			out = append(out, verdictChange{Call: h.Call, Tool: h.Tool, Here: h.Fired, There: t.Fired})
		}
	}
	return out
}
