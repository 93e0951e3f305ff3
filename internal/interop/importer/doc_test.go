package importer

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the generated part of docs/import.md")

const (
	docPath  = "../../../docs/import.md"
	docBegin = "<!-- The tables below are generated from importer's mapping tables by `go test ./internal/interop/importer -run TestImportDoc -update`; do not edit them. -->\n"
	docEnd   = "<!-- end of the generated tables -->\n"
)

// TestImportDoc fails when the mapping reference in docs/import.md is not
// the one the tables give.
func TestImportDoc(t *testing.T) {
	b, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i, j := strings.Index(doc, docBegin), strings.Index(doc, docEnd)
	if i < 0 || j < i {
		t.Fatalf("docs/import.md lacks the markers of its generated part")
	}
	want := doc[:i+len(docBegin)] + "\n" + Markdown() + doc[j:]
	if want == doc {
		return
	}
	if *update {
		if err := os.WriteFile(docPath, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("docs/import.md is stale; regenerate it with: go test ./internal/interop/importer -run TestImportDoc -update")
}
