package lint

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/config/validate"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/internal/par"
)

// Options configure a run.
type Options struct {
	// Enable turns on rules that are off by default, or that the
	// repository's settings disable.
	Enable []string
	// Disable turns rules off.
	Disable []string
	// NoInlineIgnores ignores every // charter:ignore comment (for audits).
	NoInlineIgnores bool
	// Only, when not empty, runs just these rules (and none of the driver's
	// checks of comments and settings); for tests.
	Only []string
	// Subset, when not empty, runs just those of these rules that the
	// settings and options enable, at their configured severity, with the
	// ignore comments applied, and reports no problem with comments or
	// settings: for an editor that judges these rules over a model
	// assembled from several evaluations (see Global).
	Subset []string
	// Global, when set, is the program the rules of Global judge: the
	// evaluated program with the agents it left out in place
	// (internal/config/incremental). The other rules judge the program
	// Run is given. Ignore comments then apply to the findings of both,
	// as in a run over the whole repository.
	Global *compiler.Program
}

// Global returns the rules whose judgement of one declaration depends on
// every agent of the repository (a preset no agent uses): an evaluation of
// part of the repository cannot decide them.
func Global() []string {
	return []string{unusedPreset.ID, unusedAgentType.ID, unreachableOption.ID, triggerUnprovided.ID}
}

// UnknownRuleError is an unknown rule id given on the command line.
type UnknownRuleError struct {
	ID      string
	Closest string // "" when nothing is close
}

func (e *UnknownRuleError) Error() string {
	msg := fmt.Sprintf("unknown lint rule %q", e.ID)
	if e.Closest != "" {
		return msg + fmt.Sprintf("; did you mean %q?", e.Closest)
	}
	return msg + "; run 'charter explain' to list the rules"
}

// CheckIDs returns an *UnknownRuleError for the first id that names no rule.
func CheckIDs(ids []string) error {
	for _, id := range ids {
		if _, ok := Lookup(id); !ok {
			c, _ := validate.Closest(id, IDs())
			return &UnknownRuleError{ID: id, Closest: c}
		}
	}
	return nil
}

// CompilerRuleError is a compiler-reported rule given to --disable: the
// compiler reports it as an error, which no setting turns off.
type CompilerRuleError struct{ ID string }

func (e *CompilerRuleError) Error() string {
	return fmt.Sprintf("lint rule %s is reported by the compiler as an error and cannot be disabled: fix what it reports ('charter explain %s' says how)", e.ID, e.ID)
}

// CheckDisable returns an *UnknownRuleError for the first id that names
// no rule, or a *CompilerRuleError for the first that names a rule the
// compiler reports.
func CheckDisable(ids []string) error {
	if err := CheckIDs(ids); err != nil {
		return err
	}
	for _, id := range ids {
		if r, _ := Lookup(id); r.Kind == CompilerReported {
			return &CompilerRuleError{ID: id}
		}
	}
	return nil
}

// Run lints a compiled program. files are the user's parsed files, read for
// suppression comments. The program must come from a repository that
// validated and compiled without errors; Run reports nothing about those.
// The only errors are an unknown rule id in opts and a compiler-reported
// one in opts.Disable.
func Run(prog *compiler.Program, files []*load.File, opts Options) ([]diag.Diagnostic, error) {
	for _, list := range [][]string{opts.Enable, opts.Only, opts.Subset} {
		if err := CheckIDs(list); err != nil {
			return nil, err
		}
	}
	if err := CheckDisable(opts.Disable); err != nil {
		return nil, err
	}
	settings := prog.Config.Lint
	enabled, severity, meta := configure(settings, opts)

	var found []finding
	if opts.Global == nil {
		found = runRules(prog, files, enabled)
	} else {
		local, global := maps.Clone(enabled), maps.Clone(enabled)
		for id := range enabled {
			isGlobal := slices.Contains(Global(), id)
			local[id] = local[id] && !isGlobal
			global[id] = global[id] && isGlobal
		}
		found = append(runRules(prog, files, local), runRules(opts.Global, files, global)...)
	}

	// Resolve positions, then apply suppression comments.
	loc := &locator{prog: prog}
	ds := make([]diag.Diagnostic, 0, len(found))
	for _, f := range found {
		ds = append(ds, loc.diag(f, severity))
	}
	if len(opts.Only) == 0 {
		var ignores []*ignore
		if !opts.NoInlineIgnores {
			ignores = parseIgnores(files)
		}
		ds = applyIgnores(ds, ignores)
		if len(opts.Subset) > 0 {
			return diag.Sort(ds), nil
		}
		for _, ig := range ignores {
			meta = append(meta, ig.problems(enabled)...)
		}
		for _, f := range meta {
			if enabled[f.rule.ID] {
				ds = append(ds, loc.diag(f, severity))
			}
		}
	}
	return diag.Sort(ds), nil
}

// Enabled returns the rules a run with these settings and options runs, by
// id: for JUnit, whose test cases are the rules that ran.
func Enabled(settings model.LintSettings, opts Options) []*Rule {
	enabled, _, _ := configure(settings, opts)
	var out []*Rule
	for _, r := range All() {
		if enabled[r.ID] {
			out = append(out, r)
		}
	}
	return out
}

// EnabledInfos is Enabled's rules' metadata, for output formats that list
// the rules that ran (JUnit: one test case each).
func EnabledInfos(settings model.LintSettings, opts Options) []diag.RuleInfo {
	var out []diag.RuleInfo
	for _, r := range Enabled(settings, opts) {
		out = append(out, r.Info())
	}
	return out
}

// configure decides which rules run and at which severity, and reports
// unknown rule ids in the settings.
func configure(settings model.LintSettings, opts Options) (enabled map[string]bool, severity map[string]diag.Severity, meta []finding) {
	enabled = map[string]bool{}
	for _, r := range registry {
		enabled[r.ID] = !r.Off
	}
	severity = map[string]diag.Severity{}
	for _, r := range registry {
		severity[r.ID] = r.Severity
	}
	for i, id := range settings.Disable {
		if _, ok := Lookup(id); !ok {
			meta = append(meta, finding{rule: unknownRule, path: []string{"lint", "disable", index(i)},
				msg: unknownRuleMessage(id)})
			continue
		}
		enabled[id] = false
	}
	for _, id := range model.Sorted(settings.Severity) {
		if _, ok := Lookup(id); !ok {
			meta = append(meta, finding{rule: unknownRule, path: []string{"lint", "severity", id},
				msg: unknownRuleMessage(id)})
			continue
		}
		if s, err := diag.ParseSeverity(settings.Severity[id]); err == nil {
			severity[id] = s
		}
	}
	for _, id := range opts.Enable {
		enabled[id] = true
	}
	for _, id := range opts.Disable {
		enabled[id] = false
	}
	if len(opts.Only) > 0 {
		for id := range enabled {
			enabled[id] = slices.Contains(opts.Only, id)
		}
	}
	if len(opts.Subset) > 0 {
		for id := range enabled {
			enabled[id] = enabled[id] && slices.Contains(opts.Subset, id)
		}
	}

	return enabled, severity, meta
}

// runRules runs the enabled rules, a few at a time (they only read the
// program), and returns their findings in registry order.
func runRules(prog *compiler.Program, files []*load.File, enabled map[string]bool) []finding {
	var rules []*Rule
	for _, r := range All() {
		if enabled[r.ID] && r.Run != nil {
			rules = append(rules, r)
		}
	}
	sh := newShared(prog)
	out := make([][]finding, len(rules))
	par.Each(len(rules), 0, func(i int) {
		rules[i].Run(&Pass{Rule: rules[i], Program: prog, Config: prog.Config, Files: files, shared: sh, out: &out[i]})
	})
	return slices.Concat(out...)
}

// locator resolves findings' positions: those a rule did not give are
// the program's (Program.Locate, which places list elements too).
type locator struct {
	prog *compiler.Program
}

func (l *locator) diag(f finding, severity map[string]diag.Severity) diag.Diagnostic {
	d := diag.Diagnostic{Severity: severity[f.rule.ID], Rule: f.rule.ID, Path: dotted(f.path), Message: f.msg, Suggestion: f.fix}
	if len(f.path) > 0 {
		d.Message = d.Path + ": " + f.msg
	}
	if f.pos.IsValid() {
		d.File, d.Line, d.Column = f.pos.Filename(), f.pos.Line(), l.prog.Column(f.pos)
	} else if len(f.path) > 0 {
		p := l.prog.Locate(f.path...)
		d.File, d.Line, d.Column = p.File, p.Line, p.Column
	}
	return d
}

// FailLevel parses a --fail-level value.
func FailLevel(s string) (diag.Severity, error) {
	sev, err := diag.ParseSeverity(strings.ToLower(s))
	if err != nil {
		return 0, fmt.Errorf("unknown fail level %q; valid levels: error, warning, info", s)
	}
	return sev, nil
}

func unknownRuleMessage(id string) string {
	if hint := didYouMean(id, IDs()); hint != "" {
		return fmt.Sprintf("unknown lint rule %q%s", id, hint)
	}
	return fmt.Sprintf("unknown lint rule %q; 'charter explain' lists the rules", id)
}

// NewFindings drops from ds the findings old already had, matched by rule,
// path and message (lines move when a file is edited), as many times as old
// has them.
func NewFindings(ds, old []diag.Diagnostic) []diag.Diagnostic {
	type key struct{ rule, path, msg string }
	seen := map[key]int{}
	for _, d := range old {
		seen[key{d.Rule, d.Path, d.Message}]++
	}
	var out []diag.Diagnostic
	for _, d := range ds {
		k := key{d.Rule, d.Path, d.Message}
		if seen[k] > 0 {
			seen[k]--
			continue
		}
		out = append(out, d)
	}
	return out
}
