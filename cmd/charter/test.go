package main

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/enforce/ruletest"
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
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runTests(g, o) },
	}
	cmd.Flags().StringVar(&o.run, "run", "", "run only the tests whose names match this regular expression")
	cmd.Flags().BoolVarP(&o.verbose, "verbose", "v", false, "print every test, not only failures")
	formatVar(cmd, &o.format, "text", "json", "junit")
	cmd.Flags().StringVar(&o.against, "against", "", "also run the tests on this revision's profiles and list the verdicts that changed")
	cmd.Flags().BoolVar(&o.std, "std", false, "also run the standard library's tests")
	return cmd
}

func runTests(g *globals, o *testOptions) error {
	var filter *regexp.Regexp
	if o.run != "" {
		re, err := regexp.Compile(o.run)
		if err != nil {
			return usage("--run %q is not a regular expression: %v", o.run, err)
		}
		filter = re
	}
	rev, err := evaluate(g, revision.Source{})
	if err != nil {
		return err
	}
	prog, err := program(g, rev, false)
	if err != nil {
		return err
	}
	var there *compiler.Program
	if o.against != "" {
		rev, err := evaluate(g, revision.Source{Rev: o.against})
		if err != nil {
			return err
		}
		if there, err = program(g, rev, true); err != nil {
			return err
		}
	}

	runs := ruletest.RunAll(prog, ruletest.Options{Std: o.std, Filter: filter, Against: there, AgainstName: o.against})
	failed := ruletest.Failed(runs)
	if err := writeTests(g, o, runs, failed); err != nil {
		return err
	}
	if failed > 0 {
		return findings()
	}
	return nil
}

// writeTests prints the runs in the chosen format.
func writeTests(g *globals, o *testOptions, runs []ruletest.Run, failed int) error {
	switch o.format {
	case "json":
		if runs == nil {
			runs = []ruletest.Run{}
		}
		return writeJSON(g.stdout, runs)
	case "junit":
		return ruletest.WriteJUnit(g.stdout, runs, o.against)
	default:
		writeTestText(g, o, runs, failed)
	}
	return nil
}

func writeTestText(g *globals, o *testOptions, runs []ruletest.Run, failed int) {
	for _, r := range runs {
		if o.verbose {
			textf(g.stdout, "=== RUN   %s\n", r.Name)
		}
		secs := r.Duration.Seconds()
		switch {
		case r.Error != "":
			textf(g.stdout, "--- FAIL: %s (%.2fs)\n    %s\n", r.Name, secs, r.Error)
		case !r.Passed:
			textf(g.stdout, "--- FAIL: %s (%.2fs)\n", r.Name, secs)
			// The result's lines are its own; the values in them (tool
			// names, rule ids) are escaped where it is written.
			for _, line := range strings.Split(strings.TrimRight(r.Result.String(), "\n"), "\n") {
				textf(g.stdout, "    %s\n", line)
			}
		case o.verbose:
			textf(g.stdout, "--- PASS: %s (%.2fs)\n", r.Name, secs)
		}
		for _, ch := range r.Changed {
			if ch.Call < 0 {
				textf(g.stdout, "    against %s: %s\n", o.against, ch.Tool)
				continue
			}
			textf(g.stdout, "    changed against %s: %s call %d (%s): here %s, at %s %s\n",
				o.against, r.Name, ch.Call, ch.Tool, ruletest.Fires(ch.Here), o.against, ruletest.Fires(ch.There))
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
