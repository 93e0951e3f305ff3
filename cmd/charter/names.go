package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charter-dev/charter/internal/config/validate"
	"github.com/charter-dev/charter/internal/output/diag"
)

// unknownName is a usage error for a name that does not exist, naming the
// closest one or listing the valid ones (each once, sorted; valid itself is
// left as it is).
func unknownName(noun, name string, valid []string) error {
	return unknownNameIn(noun, name, "", valid)
}

// unknownNameIn is unknownName for a name looked up somewhere ("in the
// working tree", "at v1.2.0"): where follows the name.
func unknownNameIn(noun, name, where string, valid []string) error {
	what := fmt.Sprintf("unknown %s %q", noun, name)
	if where != "" {
		what += " " + where
	}
	if c, ok := validate.Closest(name, valid); ok {
		return usage("%s; did you mean %q?", what, c)
	}
	valid = slices.Compact(slices.Sorted(slices.Values(valid)))
	if len(valid) == 0 {
		return usage("%s; there are none", what)
	}
	if len(valid) > 20 {
		valid = append(valid[:20], "...")
	}
	return usage("%s; valid: %s", what, strings.Join(valid, ", "))
}

// fmtErrors prints the closing count line of a failed command.
func fmtErrors(g *globals, ds []diag.Diagnostic) {
	g.summaryf(g.stderr, "charter: %s\n", countBySeverity(ds))
}
