package main

import (
	"slices"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/internal/config/evalcache"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/lint"
)

type lintOptions struct {
	format          string
	enable          []string
	disable         []string
	failLevel       string
	noInlineIgnores bool
	newFromRev      string
	noCache         bool
	revFlags
}

var lintFormats = []string{"text", "json", "sarif", "github", "junit"}

func newLintCmd(g *globals) *cobra.Command {
	o := &lintOptions{}
	cmd := &cobra.Command{
		Use:   "lint",
		Short: "Validate, then run every lint rule across the declarations",
		Long: `lint validates and compiles the repository like build does; if that finds
errors it prints exactly those and exits 1 without running any rule. Then it
runs the lint rules, which look across declarations: tools, profiles,
authority, templates, models, free text and credentials.

A finding is silenced in place with a comment on its line or the line above:
    // charter:ignore RULE reason
The reason is required. Repository-wide settings live in CUE:
    lint: {disable: ["rule-id"], severity: {"rule-id": "info"}}

'charter explain' lists the rules; 'charter explain RULE' documents one.
lint exits 1 when a finding reaches --fail-level (default warning). With
--new-from-rev REV it reports only the findings REV did not already have;
a REV that does not validate is named and lint exits 1, as diff does.`,
		Args: func(cmd *cobra.Command, args []string) error {
			return o.sarifOnFailure(g, func() error {
				return noArgs(cmd, args)
			})
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.sarifOnFailure(g, func() error { return runLint(g, o) })
		},
	}
	// A bad flag after --format sarif still gets its SARIF log.
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return o.sarifOnFailure(g, func() error { return flagError(c, err) })
	})
	f := cmd.Flags()
	formatVar(cmd, &o.format, lintFormats...)
	f.StringSliceVar(&o.enable, "enable", nil, "turn on rules (comma-separated or repeated), including those off by default")
	f.StringSliceVar(&o.disable, "disable", nil, "turn off rules (comma-separated or repeated); those the compiler reports cannot be")
	f.StringVar(&o.failLevel, "fail-level", "warning", "exit 1 when a finding has this severity or higher: error, warning or info")
	f.BoolVar(&o.noInlineIgnores, "no-inline-ignores", false, "ignore every // charter:ignore comment (for audits)")
	f.StringVar(&o.newFromRev, "new-from-rev", "", "report only findings that this Git revision did not already have (matched by rule, path and message, not line)")
	f.BoolVar(&o.noCache, "no-cache", false, "evaluate everything, neither reading nor writing charter's cache of earlier results (CHARTER_CACHE_DIR=off does the same)")
	o.register(cmd, true)
	return cmd
}

// sarifOnFailure runs f, and with --format sarif writes a SARIF log of its
// usage error (report.go).
func (o *lintOptions) sarifOnFailure(g *globals, f func() error) error {
	if o.format != "sarif" {
		return f()
	}
	return sarifOnFailure(g, f)
}

// check checks the flags and returns the fail level.
func (o *lintOptions) check() (diag.Severity, error) {
	failLevel, err := lint.FailLevel(o.failLevel)
	if err != nil {
		return 0, usage("%w", err)
	}
	if err := lint.CheckIDs(o.enable); err != nil {
		return 0, usage("%w", err)
	}
	if err := lint.CheckDisable(o.disable); err != nil {
		return 0, usage("%w", err)
	}
	return failLevel, nil
}

func runLint(g *globals, o *lintOptions) error {
	failLevel, err := o.check()
	if err != nil {
		return err
	}
	src := o.source(g)
	if src.Rev != "" && src.Staged {
		return usage("--rev and --staged exclude each other: choose one")
	}
	opts := lint.Options{Enable: o.enable, Disable: o.disable, NoInlineIgnores: o.noInlineIgnores}
	out, err := evalcache.Lint(src, evalcache.Options{Dir: cacheDir(g, o.noCache), Lint: opts, Log: cacheLog(g)})
	if err != nil {
		return err
	}

	// Validation and compilation first: their errors stop lint.
	ds := out.Diags
	if !out.OK {
		return lintStopped(g, o, ds)
	}
	found := out.Lint
	if o.newFromRev != "" {
		old, err := lintRev(g, o.newFromRev, opts)
		if err != nil {
			return err
		}
		found = lint.NewFindings(found, old)
	}
	ds = diag.Sort(append(slices.Clone(ds), found...))
	var infos []diag.RuleInfo
	if o.format == "junit" {
		infos = lint.EnabledInfos(out.Settings, lint.Options{Enable: o.enable, Disable: o.disable}) // one test case per rule that ran
	} else {
		infos = sarifRules() // SARIF describes every rule
	}
	if err := writeLint(g, o.format, ds, infos, failLevel); err != nil {
		return err
	}
	return lintVerdict(g, o.format, ds, out.Agents, failLevel)
}

// lintStopped prints the errors of validation and compilation, which stop
// lint before its rules run, and returns exit 1.
func lintStopped(g *globals, o *lintOptions, ds []diag.Diagnostic) error {
	var rules []diag.RuleInfo
	if o.format == "sarif" {
		rules = sarifRules()
	}
	if err := writeLint(g, o.format, ds, rules, diag.Error); err != nil {
		return err
	}
	if o.format == "text" {
		g.summaryf(g.stderr, "charter: %s; lint rules did not run: fix the errors first\n", countBySeverity(ds))
	}
	return findings()
}

// lintVerdict prints lint's summary line and returns exit 1 when a finding
// reaches the fail level.
func lintVerdict(g *globals, format string, ds []diag.Diagnostic, agents int, failLevel diag.Severity) error {
	worst, any := diag.Max(ds)
	if format == "text" {
		if any {
			g.summaryf(g.stderr, "charter: %s\n", countBySeverity(ds))
		} else {
			g.summaryf(g.stdout, "ok: no findings in %s\n", plural(agents, "agent"))
		}
	}
	if any && worst >= failLevel {
		return findings()
	}
	return nil
}

// writeLint prints ds in format: text to stderr, the data formats to stdout.
func writeLint(g *globals, format string, ds []diag.Diagnostic, rules []diag.RuleInfo, failLevel diag.Severity) error {
	switch format {
	case "text", "json":
		return writeDiagnostics(g, format, ds)
	case "sarif":
		return writeSARIF(g, ds, rules)
	case "github":
		return writeGitHub(g, ds)
	case "junit":
		return diag.WriteJUnit(g.stdout, ds, rules, failLevel)
	}
	return usage("unknown format %q", format)
}

// lintRev lints the config root as of a revision, for --new-from-rev. A
// revision that does not validate is an error, as it is for diff (see
// package revision).
func lintRev(g *globals, at string, opts lint.Options) ([]diag.Diagnostic, error) {
	rev, err := evaluate(g, revision.Source{Rev: at})
	if err != nil {
		return nil, err
	}
	prog, err := program(g, rev, true)
	if err != nil {
		return nil, err
	}
	return lint.Run(prog, rev.Validation.Repo().Files, opts)
}
