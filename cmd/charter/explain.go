package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/lint"
)

func newExplainCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "explain [RULE]",
		Short: "Print a lint rule's documentation, or list the rules",
		Long: `explain RULE prints the rule's id, default severity, summary and
documentation with a bad and a good example. explain with no argument lists
every rule.`,
		Args: takes(0, "RULE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return listRules(g)
			}
			if err := lint.CheckIDs(args); err != nil {
				return usage("%v", err)
			}
			r, _ := lint.Lookup(args[0])
			fmt.Fprint(g.stdout, explainText(r))
			return nil
		},
	}
}

func explainText(r *lint.Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s%s)\n\n%s\n\n%s", r.ID, r.Severity, ruleNote(r), r.Summary, strings.TrimSpace(r.Doc))
	b.WriteString("\n")
	return b.String()
}

func ruleNote(r *lint.Rule) string {
	switch {
	case r.Off:
		return ", off by default: --enable " + r.ID
	case r.Kind == lint.CompilerReported:
		return ", reported by the compiler"
	}
	return ""
}

func listRules(g *globals) error {
	tw := tabwriter.NewWriter(g.stdout, 0, 4, 2, ' ', 0)
	for _, r := range lint.All() {
		sev := r.Severity.String()
		if r.Off {
			sev += " (off)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.ID, sev, r.Summary)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(g.stdout, "\nrun 'charter explain RULE' for a rule's documentation and examples")
	return nil
}
