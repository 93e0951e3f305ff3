package diag

import (
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
