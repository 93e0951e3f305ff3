package main

import (
	"slices"
	"strings"

	"github.com/charter-dev/charter/internal/config/validate"
	"github.com/charter-dev/charter/internal/output/diag"
)

// unknownName is a usage error for a name that does not exist, naming the
// closest one or listing the valid ones (each once, sorted; valid itself is
// left as it is).
func unknownName(noun, name string, valid []string) error {
	if c, ok := validate.Closest(name, valid); ok {
		return usage("unknown %s %q; did you mean %q?", noun, name, c)
	}
	valid = slices.Compact(slices.Sorted(slices.Values(valid)))
	if len(valid) == 0 {
		return usage("unknown %s %q; there are none", noun, name)
	}
	if len(valid) > 20 {
		valid = append(valid[:20], "...")
	}
	return usage("unknown %s %q; valid: %s", noun, name, strings.Join(valid, ", "))
}

// fmtErrors prints the closing count line of a failed command.
func fmtErrors(g *globals, ds []diag.Diagnostic) {
	g.summaryf(g.stderr, "charter: %s\n", countBySeverity(ds))
}
