package main

import (
	"errors"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/internal/artifact/team"
	"github.com/charter-dev/charter/internal/config/revision"
)

type routeOptions struct {
	skills []string
	tags   []string
	format string
	rev    string
}

func newRouteCmd(g *globals) *cobra.Command {
	o := &routeOptions{}
	cmd := &cobra.Command{
		Use:   "route --skill ID [--tags T,...]",
		Short: "Rank the agents for a task by the routing score",
		Long: `route ranks the agents that have a task's skills by the routing score of
the identity design (AgentTaskScorer): for each skill asked for, 40% when
it is one of the agent's primary skills and 20% when secondary, times the
agent's proficiency (1.0 when unset), plus 10% when the task gives --tags
and that skill's tags cover every one of them; averaged over the skills
asked for. Each agent's line shows the three parts. Agents with none of
the skills are left out; ties go by agent id.`,
		Example: `  charter route --skill billing
  charter route --skill billing --tags accounts
  charter route --skill billing --skill escalations --format json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runRoute(g, o) },
	}
	cmd.Flags().StringArrayVar(&o.skills, "skill", nil, "a skill id the task needs (repeat for several)")
	cmd.Flags().StringSliceVar(&o.tags, "tags", nil, "tags the matched skills should cover, comma-separated")
	formatVar(cmd, &o.format, "text", "json")
	cmd.Flags().StringVar(&o.rev, "rev", "", "read the config root as of this Git revision instead of the working tree")
	return cmd
}

func runRoute(g *globals, o *routeOptions) error {
	if len(o.skills) == 0 {
		return usage("--skill is required: name a skill id the task needs, such as --skill python")
	}
	rev, err := evaluate(g, revision.Source{Rev: o.rev})
	if err != nil {
		return err
	}
	prog, err := program(g, rev, false)
	if err != nil {
		return err
	}
	agents := prog.Config.Agents
	task := team.Task{Skills: o.skills, Tags: o.tags}
	var unknown *team.UnknownError
	if err := task.Check(agents); errors.As(err, &unknown) {
		return unknownName(unknown.Kind, unknown.Name, unknown.Known)
	}
	ranked := team.Rank(agents, task)
	if o.format == "json" {
		if ranked == nil {
			ranked = []team.Route{}
		}
		return writeJSON(g.stdout, ranked)
	}
	w := tabwriter.NewWriter(g.stdout, 0, 0, 2, ' ', 0)
	for _, rt := range ranked {
		textf(w, "%s\t%.4f\t= primary %.4f + secondary %.4f + tags %.4f\t%s\n", rt.Agent, rt.Score, rt.Primary, rt.Secondary, rt.Tags, strings.Join(rt.Matched, ", "))
	}
	return w.Flush()
}
