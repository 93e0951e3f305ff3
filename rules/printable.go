package rules

import "github.com/charter-dev/charter/internal/output/diag"

// printable returns s, a name or message from a profile or a test, with
// the characters that would act on a terminal or a CI log (a line feed, an
// escape sequence) written as visible escapes: charter's one escaper,
// diag.Escape. TestResult.String and Fire.String are read by people.
func printable(s string) string { return diag.Escape(s, "") }
