package validate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestJSONSchemaProblems(t *testing.T) {
	for _, tc := range []struct {
		schema string
		want   []string
	}{
		{`{"type":"object","properties":{"a":{"type":"number"}},"required":["a"]}`, nil},
		{`{"type":"objekt"}`, []string{`type: "objekt" is not a JSON Schema type; valid types: array, boolean, integer, null, number, object, string; did you mean "object"?`}},
		{`{"type":"object","properties":{"a":{}},"required":["a","b"]}`, []string{`required[1]: required property "b" is not under properties: declare it there, or remove it from required; valid properties: a`}},
		{`{"items":{"type":"object","properties":{},"required":["x"]}}`, []string{`items.required[0]: required property "x" is not under properties: declare it there, or remove it from required`}},
		{`{"properties":{"a":{"pattern":"(["}}}`, []string{`properties.a.pattern: '([' is not valid regex: error parsing regexp: missing closing ]: ` + "`[`"}},
		{`{"$ref":"#/$defs/nope"}`, []string{`$ref #/$defs/nope points at nothing in the schema`}},
		{`{"enum":[{"required":["x"]}]}`, nil},
	} {
		var doc map[string]any
		if err := json.Unmarshal([]byte(tc.schema), &doc); err != nil {
			t.Fatal(err)
		}
		got := JSONSchemaProblems(doc)
		for i := range got {
			got[i] = strings.TrimPrefix(got[i], ": ")
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.schema, diff)
		}
	}
}

// FuzzJSONSchemaProblems: no schema makes the check panic.
func FuzzJSONSchemaProblems(f *testing.F) {
	for _, s := range []string{`{"type":"objekt"}`, `{"$ref":"http://x/y"}`, `{"properties":{"a":{"$ref":"#/properties/a"}}}`, `{"$defs":{"a":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var doc map[string]any
		if json.Unmarshal([]byte(in), &doc) != nil || doc == nil {
			return
		}
		_ = JSONSchemaProblems(doc)
	})
}
