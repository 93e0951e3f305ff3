package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// choice is a flag whose value is one of a fixed set: it refuses any other
// value when the command line is parsed, names the values in the flag's
// help, and completes them (gh's StringEnumFlag).
type choice struct {
	value   *string
	noun    string            // what a value is, in messages: "format"
	values  []string          // in the order help lists them
	aliases map[string]string // other spellings accepted for a value
}

// choiceVar defines flag name on cmd, with default def, whose value must be
// one of values; help is the flag's help up to the list of values ("output
// format" gives "output format: text or json").
func choiceVar(cmd *cobra.Command, p *string, name, def, help string, values ...string) *choice {
	c := &choice{value: p, noun: name, values: values}
	*p = def
	cmd.Flags().Var(c, name, help+": "+orList(values))
	_ = cmd.RegisterFlagCompletionFunc(name, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp))
	return c
}

// formatVar defines --format with the formats a command prints, the first
// one the default.
func formatVar(cmd *cobra.Command, p *string, formats ...string) *choice {
	return choiceVar(cmd, p, "format", formats[0], "output format", formats...)
}

// alias makes alias another spelling of value.
func (c *choice) alias(alias, value string) *choice {
	if c.aliases == nil {
		c.aliases = map[string]string{}
	}
	c.aliases[alias] = value
	return c
}

func (c *choice) String() string { return *c.value }
func (c *choice) Type() string   { return "string" }

func (c *choice) Set(s string) error {
	if v, ok := c.aliases[s]; ok {
		s = v
	}
	if !slices.Contains(c.values, s) {
		return &choiceError{noun: c.noun, value: s, values: c.values}
	}
	*c.value = s
	return nil
}

// choiceError is a value a choice flag does not take.
type choiceError struct {
	noun, value string
	values      []string
}

func (e *choiceError) Error() string {
	return fmt.Sprintf("unknown %s %q; valid %ss: %s", e.noun, e.value, e.noun, strings.Join(e.values, ", "))
}

// flagError is the usage error of a flag cobra could not parse.
func flagError(c *cobra.Command, err error) error {
	var ce *choiceError
	if errors.As(err, &ce) {
		return usage("%v", ce)
	}
	return usage("%v (see '%s --help')", err, c.CommandPath())
}

// orList joins words as "a", "a or b", "a, b or c".
func orList(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
