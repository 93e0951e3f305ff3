package main

import (
	"github.com/spf13/cobra"
)

type validateOptions struct {
	format string
	revFlags
}

func newValidateCmd(g *globals) *cobra.Command {
	o := &validateOptions{}
	cmd := &cobra.Command{
		Use:   "validate",
		Short: "Check the repository against the schema and its cross-references",
		Long: `validate loads every .cue file under the config root, checks it against
charter's schema and standard library, and checks that every name it uses
(agent types, presets, profiles, behavior types, categories, settings and
options) exists. It prints one line per problem at the user's
file:line:col and exits 1 when there is an error.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runValidate(g, o) },
	}
	formatVar(cmd, &o.format, "text", "json")
	o.register(cmd, true)
	return cmd
}

func runValidate(g *globals, o *validateOptions) error {
	rev, err := evaluate(g, o.source(g))
	if err != nil {
		return err
	}
	// What only compilation finds (placeholders, tool conflicts) is a
	// validation error too.
	if err := writeDiagnostics(g, o.format, rev.Diagnostics); err != nil {
		return err
	}
	if !rev.OK() {
		if o.format == "text" {
			g.summaryf(g.stderr, "charter: %s\n", countBySeverity(rev.Diagnostics))
		}
		return findings()
	}
	if o.format == "text" {
		c := rev.Validation.Config
		g.summaryf(g.stdout, "ok: %s, %s, %s, %s, %s, %s, %s in %s\n",
			plural(len(c.Agents), "agent"), plural(len(c.AgentTypes), "agent type"),
			plural(len(c.Categories), "category"), plural(len(c.Presets), "preset"),
			plural(len(c.BehaviorTypes), "behavior type"), plural(len(c.Profiles), "profile"),
			plural(len(c.Tests), "test"), plural(rev.Files, "file"))
	}
	return nil
}
