package diag

import (
	"cmp"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"
)

// JUnit names, fixed so that test reporters group runs across builds.
const (
	junitSuite     = "charter lint"
	junitClassname = "charter.lint"
	// junitNoRule names the test case of diagnostics that carry no rule id.
	junitNoRule = "(no rule)"
)

// WriteJUnit writes ds as a JUnit XML report, the format CI test reporters
// read: one test suite, "charter lint", holding one test case per rule that
// ran (classname "charter.lint", named by the rule id), sorted by id.
//
// A rule with findings at or above failLevel fails: its <failure> says how
// many there are and holds their text lines (Diagnostic.String). Its findings
// below failLevel go to the case's <system-out>, so a rule with only those
// passes. A rule with no findings passes. A finding whose rule is not in
// rules gets a case of its own, and findings with no rule share the case
// "(no rule)". Within a case findings keep the order of ds.
func WriteJUnit(w io.Writer, ds []Diagnostic, rules []RuleInfo, failLevel Severity) error {
	byRule := make(map[string][]Diagnostic)
	for _, r := range rules {
		byRule[r.ID] = nil // a case even with no findings
	}
	for _, d := range ds {
		id := cmp.Or(d.Rule, junitNoRule)
		byRule[id] = append(byRule[id], d)
	}
	ids := make([]string, 0, len(byRule))
	for id := range byRule {
		ids = append(ids, id)
	}
	slices.Sort(ids)

	suite := junitTestSuite{Name: junitSuite, Tests: len(ids)}
	for _, id := range ids {
		tc := junitTestCase{Classname: junitClassname, Name: id}
		var failing, below strings.Builder
		n, worst := 0, Info
		for _, d := range byRule[id] {
			if d.Severity >= failLevel {
				n++
				worst = max(worst, d.Severity)
				failing.WriteString(d.String())
				failing.WriteByte('\n')
			} else {
				below.WriteString(d.String())
				below.WriteByte('\n')
			}
		}
		if n > 0 {
			tc.Failure = &junitFailure{Message: findings(n), Type: worst.String(), Body: xmlText(failing.String())}
			suite.Failures++
		}
		if below.Len() > 0 {
			tc.SystemOut = &junitText{Body: xmlText(below.String())}
		}
		suite.Cases = append(suite.Cases, tc)
	}
	report := junitTestSuites{
		Name: "charter", Tests: suite.Tests, Failures: suite.Failures,
		Suites: []junitTestSuite{suite},
	}

	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(report); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// xmlText escapes s as XML character data, as encoding/xml does (characters
// XML cannot hold become U+FFFD), but keeps line feeds as they are, so the
// findings in a report read one a line.
func xmlText(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s)) // a strings.Builder never fails
	return strings.ReplaceAll(b.String(), "&#xA;", "\n")
}

// findings says how many findings there are: "1 finding", "3 findings".
func findings(n int) string {
	if n == 1 {
		return "1 finding"
	}
	return fmt.Sprintf("%d findings", n)
}

// The JUnit XML elements charter writes, as the Ant/Maven surefire format
// that Jenkins, GitLab, Azure Pipelines and the GitHub test-report actions
// read.
type (
	junitTestSuites struct {
		XMLName  xml.Name         `xml:"testsuites"`
		Name     string           `xml:"name,attr"`
		Tests    int              `xml:"tests,attr"`
		Failures int              `xml:"failures,attr"`
		Errors   int              `xml:"errors,attr"`
		Suites   []junitTestSuite `xml:"testsuite"`
	}
	junitTestSuite struct {
		Name     string          `xml:"name,attr"`
		Tests    int             `xml:"tests,attr"`
		Failures int             `xml:"failures,attr"`
		Errors   int             `xml:"errors,attr"`
		Skipped  int             `xml:"skipped,attr"`
		Cases    []junitTestCase `xml:"testcase"`
	}
	junitTestCase struct {
		Classname string        `xml:"classname,attr"`
		Name      string        `xml:"name,attr"`
		Failure   *junitFailure `xml:"failure,omitempty"`
		SystemOut *junitText    `xml:"system-out,omitempty"`
	}
	junitFailure struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Body    string `xml:",innerxml"` // escaped by xmlText
	}
	junitText struct {
		Body string `xml:",innerxml"` // escaped by xmlText
	}
)
