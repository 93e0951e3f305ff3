package lint_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/lint"
)

// TestOptions checks the driver's options over one repository.
func TestOptions(t *testing.T) {
	repo, prog, _ := build(t, "../testdata/lint/unused-ignore")
	run := func(opts lint.Options) []diag.Diagnostic {
		t.Helper()
		ds, err := lint.Run(prog, repo.Files, opts)
		if err != nil {
			t.Fatal(err)
		}
		return ds
	}
	rules := func(ds []diag.Diagnostic) string {
		var ids []string
		for _, d := range ds {
			ids = append(ids, d.Rule)
		}
		return strings.Join(ids, " ")
	}
	if got := rules(run(lint.Options{})); got != "unused-ignore" {
		t.Errorf("default run: got %q, want the unused ignore only", got)
	}
	if got := rules(run(lint.Options{NoInlineIgnores: true})); got != "fallback-same-model" {
		t.Errorf("--no-inline-ignores: got %q, want the silenced finding", got)
	}
	if got := rules(run(lint.Options{Disable: []string{"unused-ignore"}})); got != "" {
		t.Errorf("--disable unused-ignore: got %q, want nothing", got)
	}
	// An ignore naming a rule that did not run is not reported as unused.
	if got := rules(run(lint.Options{Disable: []string{"unknown-model"}})); got != "" {
		t.Errorf("--disable unknown-model: got %q, want nothing", got)
	}

	_, err := lint.Run(prog, repo.Files, lint.Options{Enable: []string{"secret-literals"}})
	var ue *lint.UnknownRuleError
	if !errors.As(err, &ue) || ue.Closest != "secret-literal" {
		t.Errorf("unknown --enable: got %v, want an UnknownRuleError naming secret-literal", err)
	}
}

func TestOffByDefault(t *testing.T) {
	repo, prog, _ := build(t, "../testdata/lint/high-temperature")
	ds, err := lint.Run(prog, repo.Files, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		if d.Rule == "high-temperature" {
			t.Errorf("high-temperature ran though it is off by default: %s", d)
		}
	}
	ds, _ = lint.Run(prog, repo.Files, lint.Options{Enable: []string{"high-temperature"}})
	if len(ds) == 0 || ds[0].Rule != "high-temperature" {
		t.Errorf("--enable high-temperature: got %v", ds)
	}
}

func TestSeveritySetting(t *testing.T) {
	repo, prog, _ := build(t, "../testdata/lint/fallback-same-model")
	prog.Config.Lint.Severity = map[string]string{"fallback-same-model": "error"}
	defer func() { prog.Config.Lint.Severity = nil }()
	ds, _ := lint.Run(prog, repo.Files, lint.Options{})
	if len(ds) != 1 || ds[0].Severity != diag.Error {
		t.Errorf("severity setting: got %v, want one error", ds)
	}
	prog.Config.Lint.Disable = []string{"fallback-same-model"}
	defer func() { prog.Config.Lint.Disable = nil }()
	if ds, _ := lint.Run(prog, repo.Files, lint.Options{}); len(ds) != 0 {
		t.Errorf("lint.disable: got %v, want nothing", ds)
	}
	if ds, _ := lint.Run(prog, repo.Files, lint.Options{Enable: []string{"fallback-same-model"}}); len(ds) != 1 {
		t.Errorf("--enable over lint.disable: got %v, want the finding", ds)
	}
}

func TestEstimateTokens(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{{"", 0}, {"a", 1}, {"abcd", 1}, {"abcde", 2}} {
		if got := lint.EstimateTokens(c.in); got != c.want {
			t.Errorf("EstimateTokens(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}

// TestSuggestion checks that a finding that says "did you mean" carries the
// name as data, for editors to offer as a fix.
func TestSuggestion(t *testing.T) {
	repo, prog, _ := build(t, "../testdata/lint/tool-permission-unprovided")
	ds, err := lint.Run(prog, repo.Files, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ds {
		if d.Rule == "tool-permission-unprovided" {
			got = append(got, d.Path+"="+d.Suggestion)
		}
	}
	want := "agents.ann.tools.denied[0]=read_file"
	if strings.Join(got, " ") != want {
		t.Errorf("got %q, want %q", strings.Join(got, " "), want)
	}
}

// TestNewFindings matches by rule, path and message, not line, as many
// times as the old revision had each finding.
func TestNewFindings(t *testing.T) {
	d := func(rule, path, msg string, line int) diag.Diagnostic {
		return diag.Diagnostic{Rule: rule, Path: path, Message: msg, Line: line}
	}
	old := []diag.Diagnostic{d("r", "a.b", "m", 1)}
	found := []diag.Diagnostic{d("r", "a.b", "m", 7), d("r", "a.b", "m", 9), d("r", "a.c", "m", 2)}
	got := lint.NewFindings(found, old)
	want := []diag.Diagnostic{d("r", "a.b", "m", 9), d("r", "a.c", "m", 2)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("NewFindings (-want +got):\n%s", diff)
	}
}
