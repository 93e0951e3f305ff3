package lint

import (
	"testing"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"

	"github.com/charter-dev/charter/internal/config/load"
)

// TestSecretLiteralLabelsOnlyToReport: a literal that passes the quick
// test but is no credential (a field named like one that references the
// environment, in every agent of a large file) costs no walk of its file
// for the labels around it: that walk, made for each such literal, was
// quadratic in the file. The file here has no syntax to walk.
func TestSecretLiteralLabelsOnlyToReport(t *testing.T) {
	f := &load.File{Path: "agents.cue"}
	for _, v := range []string{`"env:OPENAI_API_KEY"`, `"vault:kv/team/api"`, `"\u0041BCDEFG"`} {
		lit := &ast.BasicLit{Kind: token.STRING, Value: v}
		if !mayHoldSecret(lit.Value, true) {
			t.Fatalf("%s: the quick test passes it over; the test tests nothing", v)
		}
		func() {
			defer func() {
				if recover() != nil {
					t.Errorf("%s, which is not reported, made a walk of its file", v)
				}
			}()
			checkSecret(&Pass{}, f, "api_key", true, lit)
		}()
	}
}
