package importer

import (
	"fmt"
	"strings"
	"testing"
)

// TestYAMLSizeIsNotAliases: the bound on what aliases expand to counts
// the values aliases produce, not every value the file writes out: a
// file of 200,000 plain keys (3.7 MB, under import's 4 MiB) was refused
// with a message about aliases it does not have. An alias bomb is still
// refused, at its alias.
func TestYAMLSizeIsNotAliases(t *testing.T) {
	var b strings.Builder
	b.WriteString("agent:\n  name: Big\n  extra:\n")
	for i := range 200_000 {
		fmt.Fprintf(&b, "    k%d: v\n", i)
	}
	n, aliases, err := parseYAML([]byte(b.String()))
	if err != nil {
		t.Fatalf("200,000 plain keys: %v", err)
	}
	if aliases != 0 || len(n.Fields[0].Value.Fields[1].Value.Fields) != 200_000 {
		t.Errorf("200,000 plain keys: %d aliases, %d keys", aliases, len(n.Fields[0].Value.Fields[1].Value.Fields))
	}

	// Nine levels of ten aliases each: 10^9 values from a few lines.
	b.Reset()
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [", i, i)
		for j := range 10 {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	_, _, err = parseYAML([]byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), "YAML aliases expand to more than 100000 values") {
		t.Errorf("an alias bomb: %v, want it refused", err)
	}
}
