package rules

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// ReportCase is one test of a profile as a JUnit report shows it.
type ReportCase struct {
	// Name is the test's name; Profile the profile it exercised.
	Name, Profile string
	Seconds       float64
	// Failure, when not empty, says why the test failed (TestResult.String).
	Failure string
	// Error, when not empty, says why the test could not run (no profile,
	// a profile that does not compile).
	Error string
	// Output is more to show, passed or not (verdicts that changed against
	// another revision).
	Output string
}

// WriteJUnit writes a JUnit XML report of the tests, the Ant/Maven
// surefire format CI test reporters read (valid against the Jenkins xUnit
// plugin's junit-10.xsd): one suite, "charter test", with a case per test in
// the order given, classname "charter.test.PROFILE" (or "charter.test" when
// there is no profile), its time in seconds, a <failure> whose message is
// the first line of Failure and whose text is all of it, or an <error> for
// a test that could not run, and Output as <system-out>.
func WriteJUnit(w io.Writer, cases []ReportCase) error {
	suite := junitSuite{Name: "charter test", Tests: len(cases)}
	var total float64
	for _, c := range cases {
		tc := junitCase{Classname: "charter.test", Name: c.Name, Time: seconds(c.Seconds)}
		if c.Profile != "" {
			tc.Classname += "." + c.Profile
		}
		total += c.Seconds
		switch {
		case c.Error != "":
			tc.Error = &junitProblem{Message: firstLine(c.Error), Type: "error", Body: c.Error}
			suite.Errors++
		case c.Failure != "":
			tc.Failure = &junitProblem{Message: firstLine(c.Failure), Type: "failure", Body: c.Failure}
			suite.Failures++
		}
		if c.Output != "" {
			tc.SystemOut = &c.Output
		}
		suite.Cases = append(suite.Cases, tc)
	}
	suite.Time = seconds(total)
	report := junitSuites{Name: "charter", Tests: suite.Tests, Failures: suite.Failures, Errors: suite.Errors,
		Time: suite.Time, Suites: []junitSuite{suite}}
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

// seconds formats a duration as JUnit's time attribute: plain decimal
// seconds, which is all the surefire schema's SUREFIRE_TIME accepts.
func seconds(s float64) string { return fmt.Sprintf("%.3f", max(s, 0)) }

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

type (
	junitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Name     string       `xml:"name,attr"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Errors   int          `xml:"errors,attr"`
		Time     string       `xml:"time,attr"`
		Suites   []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name     string      `xml:"name,attr"`
		Tests    int         `xml:"tests,attr"`
		Failures int         `xml:"failures,attr"`
		Errors   int         `xml:"errors,attr"`
		Time     string      `xml:"time,attr"`
		Cases    []junitCase `xml:"testcase"`
	}
	junitCase struct {
		Name      string        `xml:"name,attr"`
		Classname string        `xml:"classname,attr"`
		Time      string        `xml:"time,attr"`
		Failure   *junitProblem `xml:"failure,omitempty"`
		Error     *junitProblem `xml:"error,omitempty"`
		SystemOut *string       `xml:"system-out,omitempty"`
	}
	junitProblem struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Body    string `xml:",chardata"`
	}
)
