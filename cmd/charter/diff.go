package main

import (
	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/repo/diff"
	"github.com/charter-dev/charter/internal/repo/diff/programs"
)

type diffOptions struct {
	agent    string
	format   string
	exitCode bool
}

func newDiffCmd(g *globals) *cobra.Command {
	o := &diffOptions{}
	cmd := &cobra.Command{
		Use:   "diff [REV_A [REV_B]]",
		Short: "Compare every declaration, field by field, between two revisions",
		Long: `diff compares the resolved agents (so a change to an agent type, a preset
or a category default shows on every agent it reaches) and every other
declaration between REV_A (default HEAD) and REV_B (default the working
tree, uncommitted changes included). Each change to what an agent may do
is classed widened or narrowed (tools allowed or denied, rules disabled or
weakened, budget, approvals, delegation, autonomy, access level, behaviors
that bring tools); widened changes are listed first.`,
		Example: `  charter diff                       # HEAD against the working tree
  charter diff v1.2.0 v1.3.0
  charter diff HEAD --agent coder --format markdown`,
		Args: takes(0, "REV_A", "REV_B"),
		RunE: func(cmd *cobra.Command, args []string) error { return runDiff(g, o, args) },
	}
	cmd.Flags().StringVar(&o.agent, "agent", "", "only this agent's changes")
	formatVar(cmd, &o.format, "text", "json", "markdown")
	cmd.Flags().BoolVar(&o.exitCode, "exit-code", false, "exit 1 when there are changes")
	return cmd
}

func runDiff(g *globals, o *diffOptions, args []string) error {
	revA, revB := "HEAD", ""
	if len(args) > 0 {
		revA = args[0]
	}
	if len(args) > 1 {
		revB = args[1]
	}
	nameB, srcB := revB, revision.Source{Rev: revB}
	if revB == "" {
		nameB, srcB.Name = "working tree", "the working tree"
	}
	a, err := diffSide(g, revision.Source{Rev: revA})
	if err != nil {
		return err
	}
	b, err := diffSide(g, srcB)
	if err != nil {
		return err
	}
	if o.agent != "" && !programs.HasAgent(a, o.agent) && !programs.HasAgent(b, o.agent) {
		return unknownName("agent", o.agent, append(model.Sorted(a.Config.Agents), model.Sorted(b.Config.Agents)...))
	}
	changes, err := programs.Compare(a, b, o.agent)
	if err != nil {
		return err
	}
	report := &diff.Report{From: revA, To: nameB, Changes: changes}
	if err := writeReport(g, o.format, report); err != nil {
		return err
	}
	if o.exitCode && len(report.Changes) > 0 {
		return findings()
	}
	return nil
}

// writeReport prints a diff report in format.
func writeReport(g *globals, format string, report *diff.Report) error {
	switch format {
	case "json":
		return writeJSON(g.stdout, report)
	case "markdown":
		return report.WriteMarkdown(g.stdout)
	}
	return report.WriteText(g.stdout)
}

// diffSide evaluates one side of a diff, which must validate.
func diffSide(g *globals, src revision.Source) (*compiler.Program, error) {
	rev, err := evaluate(g, src)
	if err != nil {
		return nil, err
	}
	prog, err := program(g, rev, true)
	if err != nil {
		return nil, err
	}
	prog.ReleaseSource() // a diff needs no positions: free the CUE values
	return prog, nil
}
