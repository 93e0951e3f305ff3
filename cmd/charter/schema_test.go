package main

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestRepoSchemaRoundTrip checks the claim of docs/editors.md: what
// `charter show --repo` prints for every example validates against what
// `charter schema --format jsonschema` prints.
func TestRepoSchemaRoundTrip(t *testing.T) {
	var schemaOut, stderr bytes.Buffer
	if code := run([]string{"schema", "--format", "jsonschema"}, &schemaOut, &stderr); code != 0 {
		t.Fatalf("charter schema: exit %d\n%s", code, stderr.String())
	}
	doc, err := jsonschema.UnmarshalJSON(&schemaOut)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("repo.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("repo.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	dirs, _ := filepath.Glob("../../examples/*/cue.mod")
	if len(dirs) == 0 {
		t.Fatal("no examples")
	}
	for _, d := range dirs {
		dir := filepath.Dir(d)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var out, stderr bytes.Buffer
			if code := run([]string{"-C", dir, "show", "--repo"}, &out, &stderr); code != 0 {
				t.Fatalf("charter show --repo: exit %d\n%s", code, stderr.String())
			}
			v, err := jsonschema.UnmarshalJSON(&out)
			if err != nil {
				t.Fatal(err)
			}
			if err := schema.Validate(v); err != nil {
				t.Errorf("charter show --repo does not validate against charter schema: %v", err)
			}
		})
	}
}
