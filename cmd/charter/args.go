package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// Argument checks. cobra's own say "accepts 1 arg(s), received 0" and are
// not marked as usage errors; these name the arguments a command takes and
// point at its help.

// noArgs is the Args check of a command that takes no arguments.
var noArgs = takes(0)

// takes returns the Args check of a command whose arguments are names: the
// first min are required, the rest optional.
func takes(min int, names ...string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) >= min && len(args) <= len(names) {
			return nil
		}
		return usage("%s takes %s; got %s (see '%s --help')", cmd.Name(), describeArgs(min, names), describeGot(args), cmd.CommandPath())
	}
}

var counts = []string{"no", "one", "two", "three"}

// describeArgs says which arguments a command takes: "no arguments", "one
// argument, AGENT", "at most two arguments, REV_A and REV_B".
func describeArgs(min int, names []string) string {
	n := len(names)
	if n == 0 {
		return "no arguments"
	}
	word := "arguments"
	if n == 1 {
		word = "argument"
	}
	count := fmt.Sprint(n)
	if n < len(counts) {
		count = counts[n]
	}
	if min < n {
		count = "at most " + count
	}
	list := names[0]
	if n > 1 {
		list = strings.Join(names[:n-1], ", ") + " and " + names[n-1]
	}
	return fmt.Sprintf("%s %s, %s", count, word, list)
}

// describeGot says which arguments were given, quoted: they are the user's
// and may hold anything.
func describeGot(args []string) string {
	if len(args) == 0 {
		return "none"
	}
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = fmt.Sprintf("%q", a)
	}
	return fmt.Sprintf("%d: %s", len(args), strings.Join(quoted, " "))
}
