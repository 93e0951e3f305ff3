package main

import (
	"regexp"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/repo/diff"
	"github.com/charter-dev/charter/internal/repo/diff/programs"
	"github.com/charter-dev/charter/internal/repo/history"
)

type diffOptions struct {
	agent    string
	format   string
	exitCode bool
}

func newDiffCmd(g *globals) *cobra.Command {
	o := &diffOptions{}
	cmd := &cobra.Command{
		Use:   "diff [REV_A|AGENT@vN [REV_B|AGENT@vN]]",
		Short: "Compare every declaration, field by field, between two revisions",
		Long: `diff compares the resolved agents (so a change to an agent type, a preset
or a category default shows on every agent it reaches) and every other
declaration between REV_A (default HEAD) and REV_B (default the working
tree, uncommitted changes included). Each change to what an agent may do
is classed widened or narrowed (tools allowed or denied, rules disabled or
weakened, budget, approvals, delegation, autonomy, access level, behaviors
that bring tools); widened changes are listed first. An agent added is
widened, with every field it brings (the tools it may call, its access
level, authority and budget); one removed, narrowed.

A side may name a version of an agent as charter log numbers it (ann@v2):
the diff is then of that agent alone, and --format json carries seed
004's AgentIdentityDiff fields, agent_id, from_version, to_version and
summary.`,
		Example: `  charter diff                       # HEAD against the working tree
  charter diff v1.2.0 v1.3.0
  charter diff ann@v1 ann@v2         # two versions of one agent
  charter diff v1.2.0 --agent ann --format markdown`,
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
	if isVersionRef(revA) || isVersionRef(revB) {
		return diffVersions(g, o, revA, revB)
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
	if o.agent != "" {
		report.AgentID, report.Summary = o.agent, diff.Summarize(o.agent, changes)
	}
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

// versionRef matches an agent's version as charter log numbers it:
// ann@v2.
var versionRef = regexp.MustCompile(`^([a-z0-9][a-z0-9_-]*)@v([0-9]+)$`)

func isVersionRef(s string) bool { return versionRef.MatchString(s) }

// diffVersions compares one agent between two sides, at least one of them
// a version of it (ann@v1; the other a version, a revision, or the
// working tree), as seed 004's identity API compares versions.
func diffVersions(g *globals, o *diffOptions, a, b string) error {
	id := ""
	for _, side := range []string{a, b} {
		if m := versionRef.FindStringSubmatch(side); m != nil {
			if id != "" && m[1] != id {
				return usage("diff with versions compares one agent: %s and %s name two; compare each agent's versions apart", a, b)
			}
			id = m[1]
		}
	}
	if o.agent != "" && o.agent != id {
		return usage("--agent %s and %s name two agents: compare one", o.agent, id)
	}
	var versions []history.Version
	side := func(ref string) (map[string]any, int, error) {
		if m := versionRef.FindStringSubmatch(ref); m != nil {
			if versions == nil {
				vs, err := agentVersions(g, "HEAD", id, history.AgentOptions{Docs: true})
				if err != nil {
					return nil, 0, err
				}
				versions = vs
			}
			n, _ := strconv.Atoi(m[2])
			if n < 1 || n > len(versions) {
				return nil, 0, usage("agent %s has versions v1 to v%d; see charter log %s", id, len(versions), id)
			}
			return versions[n-1].Doc, n, nil
		}
		src := revision.Source{Rev: ref}
		if ref == "" {
			src.Name = "the working tree"
		}
		prog, err := diffSide(g, src)
		if err != nil {
			return nil, 0, err
		}
		doc, err := bundle.AgentDocIn(prog, id)
		return doc, 0, err
	}
	docA, fromV, err := side(a)
	if err != nil {
		return err
	}
	docB, toV, err := side(b)
	if err != nil {
		return err
	}
	sides := func(doc map[string]any) map[string]map[string]any {
		if doc == nil {
			return nil
		}
		return map[string]map[string]any{id: doc}
	}
	changes := diff.Agents(sides(docA), sides(docB))
	nameB := b
	if b == "" {
		nameB = "working tree"
	}
	report := &diff.Report{From: a, To: nameB, AgentID: id, FromVersion: fromV, ToVersion: toV, Summary: diff.Summarize(id, changes), Changes: changes}
	if err := writeReport(g, o.format, report); err != nil {
		return err
	}
	if o.exitCode && len(report.Changes) > 0 {
		return findings()
	}
	return nil
}
