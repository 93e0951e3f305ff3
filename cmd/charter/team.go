package main

import (
	"errors"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/internal/artifact/team"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/config/revision"
)

type teamOptions struct {
	format string
	rev    string
}

func newTeamCmd(g *globals) *cobra.Command {
	o := &teamOptions{}
	cmd := &cobra.Command{
		Use:   "team AGENT AGENT",
		Short: "Score how well two agents work together, with the score's parts",
		Long: `team scores the compatibility of two agents as team.json does (package
team; see docs/bundle.md): 60% Big Five similarity, 20% collaboration
alignment and 20% conflict approach, each part shown, and the reports_to
and can_delegate_to relationships declared between the two. Above 500
agents team.json no longer holds every pair's score: this command scores
any pair on demand.`,
		Example: `  charter team ann bob
  charter team ann bob --format json
  charter team ann bob --rev HEAD~1`,
		Args: takes(2, "AGENT", "AGENT"),
		RunE: func(cmd *cobra.Command, args []string) error { return runTeam(g, o, args[0], args[1]) },
	}
	formatVar(cmd, &o.format, "text", "json")
	cmd.Flags().StringVar(&o.rev, "rev", "", "read the config root as of this Git revision instead of the working tree")
	return cmd
}

func runTeam(g *globals, o *teamOptions, a, b string) error {
	if a == b {
		return usage("name two different agents: %q is given twice", a)
	}
	var ev revision.Evaluator
	r, err := ev.Evaluate(revision.Source{Dir: g.dir, Rev: o.rev})
	if err != nil {
		var re *revision.Error
		if errors.As(err, &re) {
			return withHint(re.Err, re.Hint)
		}
		return err
	}
	if !r.OK() {
		_ = writeDiagnostics(g, "text", r.Diagnostics)
		fmtErrors(g, r.Diagnostics)
		return findings()
	}
	agents := r.Program.Config.Agents
	for _, id := range []string{a, b} {
		if agents[id] == nil {
			return unknownName("agent", id, model.Sorted(agents))
		}
	}
	bd := team.Explain(agents, a, b)
	if o.format == "json" {
		return writeJSON(g.stdout, bd)
	}
	textf(g.stdout, "%s and %s: %.4f\n", a, b, bd.Score)
	w := tabwriter.NewWriter(g.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(w, "  big five\t%.4f\tx %.1f\n", bd.BigFive, team.WeightBigFive)
	fmt.Fprintf(w, "  collaboration\t%.4f\tx %.1f\n", bd.Collaboration, team.WeightCollaboration)
	fmt.Fprintf(w, "  conflict\t%.4f\tx %.1f\n", bd.Conflict, team.WeightConflict)
	if err := w.Flush(); err != nil {
		return err
	}
	for _, rel := range bd.Relations {
		textf(g.stdout, "  %s\n", rel)
	}
	return nil
}
