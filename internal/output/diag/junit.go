package diag

import (
	"bytes"
	"cmp"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"
)

// JUnit names, fixed so that test reporters group runs across builds.
const (
	junitSuite     = "charter lint"
	junitClassname = "charter.lint"
	// junitNoRule names the test case of diagnostics that carry no rule id.
	junitNoRule = "(no rule)"
)

// JUnitCase is one test case of a JUnit report.
type JUnitCase struct {
	Classname, Name string
	// Seconds, when not nil, is the case's time.
	Seconds *float64
	// Failure says why the case failed; Error why it could not run.
	Failure, Error *JUnitProblem
	// Output is what else to show, passed or not (<system-out>).
	Output string
}

// JUnitProblem is a case's failure or error: a one-line message, a type,
// and the whole text.
type JUnitProblem struct {
	Message, Type, Text string
}

// WriteJUnitReport writes a JUnit XML report, the Ant/Maven surefire format
// that Jenkins, GitLab, Azure Pipelines and the GitHub test-report actions
// read (valid against the Jenkins xUnit plugin's junit-10.xsd): one suite
// named suite, holding cases in the order given. Texts keep their line
// feeds, so that a report reads one finding a line; characters XML cannot
// hold become U+FFFD. It is charter's one JUnit writer: lint's findings
// and charter test's results both go through it.
func WriteJUnitReport(w io.Writer, suite string, cases []JUnitCase) error {
	ts := junitTestSuite{Name: suite, Tests: len(cases)}
	var total float64
	timed := false
	for _, c := range cases {
		tc := junitTestCase{Classname: c.Classname, Name: c.Name}
		if c.Seconds != nil {
			tc.Time, total, timed = seconds(*c.Seconds), total+*c.Seconds, true
		}
		if p := c.Failure; p != nil {
			tc.Failure = &junitProblem{Message: p.Message, Type: p.Type, Body: xmlText(p.Text)}
			ts.Failures++
		}
		if p := c.Error; p != nil {
			tc.Error = &junitProblem{Message: p.Message, Type: p.Type, Body: xmlText(p.Text)}
			ts.Errors++
		}
		if c.Output != "" {
			tc.SystemOut = &junitText{Body: xmlText(c.Output)}
		}
		ts.Cases = append(ts.Cases, tc)
	}
	if timed {
		ts.Time = seconds(total)
	}
	report := junitTestSuites{
		Name: "charter", Tests: ts.Tests, Failures: ts.Failures, Errors: ts.Errors, Time: ts.Time,
		Suites: []junitTestSuite{ts},
	}
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(report); err != nil {
		return err
	}
	b.WriteByte('\n')
	_, err := w.Write(escapeXMLCommands(b.Bytes()))
	return err
}

// escapeXMLCommands returns an encoded report with no workflow command
// GitHub Actions' runner would run when a CI log shows it (as Escape and
// EscapeJSON leave none in text and JSON): the second # of every ##[ is
// written &#35;, and the first colon of a :: that starts a line after
// white space &#58;, which an XML reader reads as the same characters.
// Both are only ever in a value (an attribute holds no line feed; element
// names are charter's).
func escapeXMLCommands(b []byte) []byte {
	b = bytes.ReplaceAll(b, legacyCommand, []byte("#&#35;["))
	if !bytes.Contains(b, []byte("::")) {
		return b
	}
	var out bytes.Buffer
	for line := range bytes.SplitAfterSeq(b, []byte("\n")) {
		rest := bytes.TrimLeftFunc(line, unicode.IsSpace)
		if bytes.HasPrefix(rest, []byte("::")) {
			out.Write(line[:len(line)-len(rest)])
			out.WriteString("&#58;")
			out.Write(rest[1:])
			continue
		}
		out.Write(line)
	}
	return out.Bytes()
}

// seconds formats a duration as JUnit's time attribute: plain decimal
// seconds, which is all the surefire schema's SUREFIRE_TIME accepts.
func seconds(s float64) string { return fmt.Sprintf("%.3f", max(s, 0)) }

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

	cases := make([]JUnitCase, 0, len(ids))
	for _, id := range ids {
		c := JUnitCase{Classname: junitClassname, Name: id}
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
			c.Failure = &JUnitProblem{Message: findings(n), Type: worst.String(), Text: failing.String()}
		}
		c.Output = below.String()
		cases = append(cases, c)
	}
	return WriteJUnitReport(w, junitSuite, cases)
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

// The JUnit XML elements charter writes.
type (
	junitTestSuites struct {
		XMLName  xml.Name         `xml:"testsuites"`
		Name     string           `xml:"name,attr"`
		Tests    int              `xml:"tests,attr"`
		Failures int              `xml:"failures,attr"`
		Errors   int              `xml:"errors,attr"`
		Time     string           `xml:"time,attr,omitempty"`
		Suites   []junitTestSuite `xml:"testsuite"`
	}
	junitTestSuite struct {
		Name     string          `xml:"name,attr"`
		Tests    int             `xml:"tests,attr"`
		Failures int             `xml:"failures,attr"`
		Errors   int             `xml:"errors,attr"`
		Skipped  int             `xml:"skipped,attr"`
		Time     string          `xml:"time,attr,omitempty"`
		Cases    []junitTestCase `xml:"testcase"`
	}
	junitTestCase struct {
		Classname string        `xml:"classname,attr"`
		Name      string        `xml:"name,attr"`
		Time      string        `xml:"time,attr,omitempty"`
		Failure   *junitProblem `xml:"failure,omitempty"`
		Error     *junitProblem `xml:"error,omitempty"`
		SystemOut *junitText    `xml:"system-out,omitempty"`
	}
	junitProblem struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Body    string `xml:",innerxml"` // escaped by xmlText
	}
	junitText struct {
		Body string `xml:",innerxml"` // escaped by xmlText
	}
)
