package validate

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestChecksCoverEveryID holds Checks to the ids the loader, validator and
// compiler report: every "Rule: "x"", report("x", ...) and similar literal
// in their sources must be described, and the list must be sorted. The
// lint rules' ids (tool-conflict, regex-invalid) are lint's.
func TestChecksCoverEveryID(t *testing.T) {
	known := map[string]bool{"tool-conflict": true, "regex-invalid": true}
	var ids []string
	for _, c := range Checks() {
		ids = append(ids, c.ID)
		known[c.ID] = true
		if c.Summary == "" || c.Doc == "" {
			t.Errorf("%s: summary and doc are required (SARIF readers show them)", c.ID)
		}
	}
	if !slices.IsSorted(ids) {
		t.Errorf("Checks is not sorted by id: %v", ids)
	}
	re := regexp.MustCompile(`(?:Rule: |report(?:At|Label)?\(|errorf\(|FromCUE\(err, |rule :?= )"([a-z][a-z-]*)"`)
	for _, dir := range []string{".", "../load", "../../../compiler"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range re.FindAllStringSubmatch(string(b), -1) {
				if !known[m[1]] {
					t.Errorf("%s reports check %q, which Checks does not describe", f, m[1])
				}
			}
		}
	}
}
