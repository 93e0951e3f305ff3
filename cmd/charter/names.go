package main

import (
	"slices"
	"strings"

	"github.com/charter-dev/charter/diag"
	"github.com/charter-dev/charter/model"
	"github.com/charter-dev/charter/validate"
)

// unknownName is a usage error for a name that does not exist, naming the
// closest one or listing the valid ones.
func unknownName(noun, name string, valid []string) error {
	if c, ok := validate.Closest(name, valid); ok {
		return usage("unknown %s %q; did you mean %q?", noun, name, c)
	}
	slices.Sort(valid)
	if len(valid) == 0 {
		return usage("unknown %s %q; there are none", noun, name)
	}
	if len(valid) > 20 {
		valid = append(valid[:20], "...")
	}
	return usage("unknown %s %q; valid: %s", noun, name, strings.Join(valid, ", "))
}

func keys[V any](m map[string]V) []string { return model.Sorted(m) }

// fmtErrors prints the closing count line of a failed command.
func fmtErrors(g *globals, ds []diag.Diagnostic) {
	g.summaryf(g.stderr, "charter: %s\n", countBySeverity(ds))
}
