package ruletest

import (
	"bytes"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/testkit/realtool"
	"github.com/charter-dev/charter/rules"
)

// TestWriteJUnit reads the report back as a CI reporter would, and checks
// it against the Jenkins xUnit plugin's schema with xmllint.
func TestWriteJUnit(t *testing.T) {
	failure := "call 0 (Edit): fired [], want [x (warn)]\ncall 1 (Bash): fired [y (block)], want []"
	runs := []Run{
		{Name: "passes", Profile: "mine", Passed: true, Duration: 12300 * time.Microsecond},
		{Name: "fails", Profile: "mine", Duration: 1500 * time.Millisecond,
			Result:  &rules.TestResult{Failures: []rules.TestFailure{{Message: "call 0 (Edit): fired [], want [x (warn)]"}, {Call: 1, Message: "call 1 (Bash): fired [y (block)], want []"}}},
			Changed: []Change{{Call: 0, Tool: "Edit"}}},
		{Name: "cannot run", Error: "no profile to test: name a profile, or an agent that has one"},
	}
	var buf bytes.Buffer
	if err := WriteJUnit(&buf, runs, "v1"); err != nil {
		t.Fatal(err)
	}
	type problem struct {
		Message string `xml:"message,attr"`
		Body    string `xml:",chardata"`
	}
	var got struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name      string   `xml:"name,attr"`
				Classname string   `xml:"classname,attr"`
				Time      string   `xml:"time,attr"`
				Failure   *problem `xml:"failure"`
				Error     *problem `xml:"error"`
				SystemOut string   `xml:"system-out"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, buf.Bytes())
	}
	if got.Tests != 3 || got.Failures != 1 || got.Errors != 1 || len(got.Suites) != 1 || got.Suites[0].Name != "charter test" {
		t.Fatalf("counts: %+v", got)
	}
	c := got.Suites[0].Cases
	if diff := cmp.Diff([]string{"charter.test.mine", "charter.test.mine", "charter.test"}, []string{c[0].Classname, c[1].Classname, c[2].Classname}); diff != "" {
		t.Errorf("classnames (-want +got):\n%s", diff)
	}
	if c[0].Time != "0.012" || c[0].Failure != nil || c[0].Error != nil {
		t.Errorf("passing case: %+v", c[0])
	}
	if c[1].Failure == nil || c[1].Failure.Message != "call 0 (Edit): fired [], want [x (warn)]" || c[1].Failure.Body != failure ||
		c[1].SystemOut != "changed against v1: call 0 (Edit): here nothing fires, at v1 nothing fires" {
		t.Errorf("failing case: %+v", c[1])
	}
	if c[2].Error == nil || c[2].Error.Body != runs[2].Error {
		t.Errorf("case that cannot run: %+v", c[2])
	}

	xmllint := realtool.Need(t, "xmllint", "libxml2-utils")
	file := filepath.Join(t.TempDir(), "report.xml")
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(xmllint, "--noout", "--schema", "../../output/diag/testdata/junit-10.xsd", file).CombinedOutput(); err != nil {
		t.Errorf("xmllint rejects the report: %v\n%s", err, out)
	}
}

// FuzzWriteJUnit checks that any test name, failure and output give a
// well-formed report with one case per test.
func FuzzWriteJUnit(f *testing.F) {
	f.Add("t", "p", "call 0: fired []\nwant [x]", "", "changed")
	f.Add("a<b>&\"c\"", "\x1b[2J", "]]>", "\x00\uFFFE", "\xff")
	f.Fuzz(func(t *testing.T, name, profile, failure, errText, output string) {
		var buf bytes.Buffer
		run := Run{Name: name, Profile: profile, Error: errText, Result: &rules.TestResult{Failures: []rules.TestFailure{{Message: failure}}},
			Changed: []Change{{Call: -1, Tool: output}}}
		if err := WriteJUnit(&buf, []Run{run}, "v1"); err != nil {
			t.Fatal(err)
		}
		var got struct {
			Suites []struct {
				Cases []struct {
					Name string `xml:"name,attr"`
				} `xml:"testcase"`
			} `xml:"testsuite"`
		}
		if err := xml.Unmarshal(buf.Bytes(), &got); err != nil {
			t.Fatalf("not well-formed: %v\n%s", err, buf.Bytes())
		}
		if len(got.Suites) != 1 || len(got.Suites[0].Cases) != 1 {
			t.Fatalf("want one suite with one case:\n%s", buf.Bytes())
		}
	})
}
