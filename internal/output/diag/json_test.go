package diag

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestJSONNoHTMLEscapes checks that messages keep their characters: a
// cycle reads "a -> b", not "a -\u003e b".
func TestJSONNoHTMLEscapes(t *testing.T) {
	b, err := JSON([]Diagnostic{{Severity: Error, Message: "in a cycle: a -> b & c <- a"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"in a cycle: a -> b & c <- a"`) {
		t.Errorf("JSON escaped the message: %s", b)
	}
}

// TestEscapeJSON: the JSON formats hold no legacy workflow command (##[),
// and a JSON reader reads the same values.
func TestEscapeJSON(t *testing.T) {
	ds := []Diagnostic{{File: "a.cue", Line: 1, Column: 2, Severity: Warning, Rule: "r", Message: "model ##[stop-commands]tok and ###[x ##["}}
	b, err := JSON(ds)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "##[") {
		t.Errorf("JSON holds ##[:\n%s", b)
	}
	var back []map[string]any
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back[0]["message"] != ds[0].Message {
		t.Errorf("JSON reads back %q, want %q", back[0]["message"], ds[0].Message)
	}
}
