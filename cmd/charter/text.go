package main

import (
	"fmt"
	"io"

	"github.com/charter-dev/charter/internal/output/diag"
)

// esc returns s, a value from the configuration or from Git, fit for one
// line of text output: diag.Escape, charter's one escaper, makes its
// control, bidirectional and invisible characters visible, so that no value
// writes a line of its own (which GitHub Actions runs as a workflow
// command when it starts with ::), moves the terminal's cursor or hides
// from the reader (docs/design.md §6).
func esc(s string) string { return diag.Escape(s, "") }

// textf prints a line of text output to w: format is charter's own, and
// every string, error and fmt.Stringer among args passes through esc. Its
// formats use %s and %v for them, never %q (which would quote the escapes
// again).
func textf(w io.Writer, format string, args ...any) {
	fmt.Fprintf(w, format, escArgs(args)...)
}

// escArgs returns args with every string, error and fmt.Stringer made
// escaped strings; numbers and the rest are kept.
func escArgs(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case string:
			out[i] = esc(v)
		case error:
			out[i] = esc(v.Error())
		case fmt.Stringer:
			out[i] = esc(v.String())
		default:
			out[i] = a
		}
	}
	return out
}
