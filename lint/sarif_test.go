package lint_test

import (
	"bytes"
	"testing"

	"github.com/charter-dev/charter/internal/testkit/sariftest"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/lint"
)

// TestSARIF checks that lint's findings with every rule's metadata make a
// SARIF log valid against the official 2.1.0 schema.
func TestSARIF(t *testing.T) {
	schema := sariftest.Schema(t)

	var ds []diag.Diagnostic
	for _, dir := range []string{"secret-literal", "unknown-rule", "delegation-cycle"} {
		repo, prog, _ := build(t, "../testdata/lint/"+dir)
		found, err := lint.Run(prog, repo.Files, lint.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, found...)
	}
	if len(ds) == 0 {
		t.Fatal("no findings to write")
	}
	var buf bytes.Buffer
	if err := diag.WriteSARIF(&buf, ds, lint.Infos(), diag.ToolInfo{Version: "test", RootURI: "file:///repo"}); err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(v); err != nil {
		t.Fatalf("SARIF log is not valid: %v", err)
	}
}

// TestSecretsNeverPrinted checks that no finding repeats a credential.
func TestSecretsNeverPrinted(t *testing.T) {
	repo, prog, _ := build(t, "../testdata/lint/secret-literal")
	ds, err := lint.Run(prog, repo.Files, lint.Options{NoInlineIgnores: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		for _, secret := range []string{"sk-proj-abc", "hunter2", "ghp_0123", "AKIAIOSFODNN7EXAMPLE", "xoxb-1234", "MIIE"} {
			if bytes.Contains([]byte(d.Message), []byte(secret)) {
				t.Errorf("finding prints a credential: %s", d)
			}
		}
	}
}
