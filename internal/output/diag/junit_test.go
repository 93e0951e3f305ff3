package diag

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The report as a CI test reporter reads it, decoded with encoding/xml
// independently of the types WriteJUnit encodes.
type (
	readSuites struct {
		XMLName  xml.Name    `xml:"testsuites"`
		Tests    int         `xml:"tests,attr"`
		Failures int         `xml:"failures,attr"`
		Errors   int         `xml:"errors,attr"`
		Suites   []readSuite `xml:"testsuite"`
	}
	readSuite struct {
		Name     string     `xml:"name,attr"`
		Tests    int        `xml:"tests,attr"`
		Failures int        `xml:"failures,attr"`
		Errors   int        `xml:"errors,attr"`
		Skipped  int        `xml:"skipped,attr"`
		Cases    []readCase `xml:"testcase"`
	}
	readCase struct {
		Classname string       `xml:"classname,attr"`
		Name      string       `xml:"name,attr"`
		Failure   *readFailure `xml:"failure"`
		SystemOut string       `xml:"system-out"`
	}
	readFailure struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Body    string `xml:",chardata"`
	}
)

func readJUnit(t *testing.T, out []byte) readSuites {
	t.Helper()
	if !bytes.HasPrefix(out, []byte(xml.Header)) {
		t.Errorf("no XML declaration:\n%s", out)
	}
	var r readSuites
	if err := xml.Unmarshal(out, &r); err != nil {
		t.Fatalf("not well-formed XML: %v\n%s", err, out)
	}
	return r
}

func TestWriteJUnit(t *testing.T) {
	line := func(d Diagnostic) string { return d.String() + "\n" }
	errA := Diagnostic{File: "a.cue", Line: 1, Column: 2, Severity: Error, Rule: "tool-conflict", Message: "bash: allowed, denied"}
	errB := Diagnostic{File: "b.cue", Line: 3, Column: 4, Severity: Error, Rule: "tool-conflict", Message: "write <both> & more"}
	warn := Diagnostic{File: "a.cue", Line: 5, Column: 1, Severity: Warning, Rule: "prompt-budget", Message: "14% over\nby 1,120 tokens"}
	info := Diagnostic{File: "c.cue", Severity: Info, Rule: "unreachable-option", Message: "never selected"}
	rules := []RuleInfo{
		{ID: "tool-conflict", Severity: Error},
		{ID: "prompt-budget", Severity: Warning},
		{ID: "secret-literal", Severity: Error},
		{ID: "unreachable-option", Severity: Info},
	}
	pass := func(name string) readCase { return readCase{Classname: "charter.lint", Name: name} }

	tests := []struct {
		name      string
		ds        []Diagnostic
		rules     []RuleInfo
		failLevel Severity
		want      readSuite
	}{
		{
			name: "clean run: every rule passes", rules: rules, failLevel: Warning,
			want: readSuite{Tests: 4, Cases: []readCase{
				pass("prompt-budget"), pass("secret-literal"), pass("tool-conflict"), pass("unreachable-option"),
			}},
		},
		{
			name: "fail at warning", ds: []Diagnostic{errA, warn, errB, info}, rules: rules, failLevel: Warning,
			want: readSuite{Tests: 4, Failures: 2, Cases: []readCase{
				{Classname: "charter.lint", Name: "prompt-budget", Failure: &readFailure{Message: "1 finding", Type: "warning", Body: line(warn)}},
				pass("secret-literal"),
				{Classname: "charter.lint", Name: "tool-conflict", Failure: &readFailure{Message: "2 findings", Type: "error", Body: line(errA) + line(errB)}},
				{Classname: "charter.lint", Name: "unreachable-option", SystemOut: line(info)},
			}},
		},
		{
			name: "fail at error: warnings go to system-out", ds: []Diagnostic{errA, warn, errB, info}, rules: rules, failLevel: Error,
			want: readSuite{Tests: 4, Failures: 1, Cases: []readCase{
				{Classname: "charter.lint", Name: "prompt-budget", SystemOut: line(warn)},
				pass("secret-literal"),
				{Classname: "charter.lint", Name: "tool-conflict", Failure: &readFailure{Message: "2 findings", Type: "error", Body: line(errA) + line(errB)}},
				{Classname: "charter.lint", Name: "unreachable-option", SystemOut: line(info)},
			}},
		},
		{
			name: "fail at info: everything fails", ds: []Diagnostic{info, warn}, rules: rules[1:2], failLevel: Info,
			want: readSuite{Tests: 2, Failures: 2, Cases: []readCase{
				{Classname: "charter.lint", Name: "prompt-budget", Failure: &readFailure{Message: "1 finding", Type: "warning", Body: line(warn)}},
				{Classname: "charter.lint", Name: "unreachable-option", Failure: &readFailure{Message: "1 finding", Type: "info", Body: line(info)}},
			}},
		},
		{
			name: "one rule, findings above and below the level",
			ds: []Diagnostic{
				{File: "a.cue", Line: 1, Column: 1, Severity: Warning, Rule: "r", Message: "w"},
				{File: "a.cue", Line: 2, Column: 1, Severity: Error, Rule: "r", Message: "e"},
			},
			failLevel: Error,
			want: readSuite{Tests: 1, Failures: 1, Cases: []readCase{{
				Classname: "charter.lint", Name: "r",
				Failure:   &readFailure{Message: "1 finding", Type: "error", Body: "a.cue:2:1: error: [r] e\n"},
				SystemOut: "a.cue:1:1: warning: [r] w\n",
			}}},
		},
		{
			name: "unregistered rule and no rule get cases of their own",
			ds: []Diagnostic{
				{Severity: Error, Message: "no module"},
				{File: "x.cue", Line: 1, Column: 1, Severity: Error, Rule: "schema", Message: "field not allowed"},
			},
			failLevel: Error,
			want: readSuite{Tests: 2, Failures: 2, Cases: []readCase{
				{Classname: "charter.lint", Name: "(no rule)", Failure: &readFailure{Message: "1 finding", Type: "error", Body: "error: no module\n"}},
				{Classname: "charter.lint", Name: "schema", Failure: &readFailure{Message: "1 finding", Type: "error", Body: "x.cue:1:1: error: [schema] field not allowed\n"}},
			}},
		},
		{
			name: "control characters are made visible",
			ds:   []Diagnostic{{Severity: Error, Rule: "r", Message: "nul\x00 esc\x1b ]]> end"}},
			want: readSuite{Tests: 1, Failures: 1, Cases: []readCase{
				{Classname: "charter.lint", Name: "r", Failure: &readFailure{Message: "1 finding", Type: "error", Body: "error: [r] nul\\x00 esc\\x1b ]]> end\n"}},
			}},
		},
		{name: "nothing at all", want: readSuite{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := render(t, func(b *bytes.Buffer) error { return WriteJUnit(b, tt.ds, tt.rules, tt.failLevel) })
			got := readJUnit(t, out)
			want := tt.want
			want.Name = "charter lint"
			wantRoot := readSuites{
				XMLName: xml.Name{Local: "testsuites"}, Tests: want.Tests, Failures: want.Failures,
				Suites: []readSuite{want},
			}
			if diff := cmp.Diff(wantRoot, got); diff != "" {
				t.Errorf("report (-want +got):\n%s\n%s", diff, out)
			}
		})
	}
}

func TestWriteJUnitGolden(t *testing.T) {
	got := render(t, func(b *bytes.Buffer) error { return WriteJUnit(b, lintDiagnostics, lintRules, Warning) })
	checkGolden(t, "lint.junit.xml", got)
	// The same input gives the same bytes.
	again := render(t, func(b *bytes.Buffer) error { return WriteJUnit(b, lintDiagnostics, lintRules, Warning) })
	if !bytes.Equal(got, again) {
		t.Error("two runs on the same input differ")
	}
	// Every finding is in the report exactly once, in a failure or in
	// system-out.
	r := readJUnit(t, got)
	var all strings.Builder
	for _, c := range r.Suites[0].Cases {
		if c.Failure != nil {
			all.WriteString(c.Failure.Body)
		}
		all.WriteString(c.SystemOut)
	}
	for _, d := range lintDiagnostics {
		if n := strings.Count(all.String(), d.String()); n != 1 {
			t.Errorf("%q appears %d times in the report", d.String(), n)
		}
	}
}

// TestJUnitWorkflowCommands: a JUnit report shown in a CI log holds no
// workflow command GitHub Actions' runner would run (##[ anywhere, :: at
// a line's start after white space), as the text and JSON outputs hold
// none; an XML reader reads the values unchanged.
func TestJUnitWorkflowCommands(t *testing.T) {
	name := "x##[stop-commands]tok"
	text := "fine\n  ::error file=a.cue::FORGED\n::warning::W ##[group]G\n"
	var b bytes.Buffer
	err := WriteJUnitReport(&b, "s", []JUnitCase{{Classname: "c", Name: name,
		Failure: &JUnitProblem{Message: "::error::M", Type: "failure", Text: text}, Output: text}})
	if err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, "##[") {
		t.Errorf("the report holds ##[:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "::") {
			t.Errorf("a line of the report starts with :: : %q", l)
		}
	}
	r := readJUnit(t, b.Bytes())
	c := r.Suites[0].Cases[0]
	if c.Name != name || c.Failure == nil || c.Failure.Body != text || c.Failure.Message != "::error::M" || c.SystemOut != text {
		t.Errorf("an XML reader reads %+v %+v, want the values written", c, c.Failure)
	}
}
