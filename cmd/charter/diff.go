package main

import (
	"bytes"
	"encoding/json"
	"io/fs"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/bundle"
	"github.com/charter-dev/charter/diff"
	"github.com/charter-dev/charter/model"
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
		Args: cobra.MaximumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error { return runDiff(g, o, args) },
	}
	cmd.Flags().StringVar(&o.agent, "agent", "", "only this agent's changes")
	cmd.Flags().StringVar(&o.format, "format", "text", "output format: text, json or markdown")
	cmd.Flags().BoolVar(&o.exitCode, "exit-code", false, "exit 1 when there are changes")
	return cmd
}

func runDiff(g *globals, o *diffOptions, args []string) error {
	if o.format != "text" && o.format != "json" && o.format != "markdown" {
		return usage("unknown format %q; valid formats: text, json, markdown", o.format)
	}
	revA, revB := "HEAD", ""
	if len(args) > 0 {
		revA = args[0]
	}
	if len(args) > 1 {
		revB = args[1]
	}
	repo, err := openRepo(g)
	if err != nil {
		return err
	}
	defer repo.Close()
	side := func(rev string) (*evaluation, error) {
		fsys, name := fs.FS(nil), rev
		if rev == "" {
			if fsys, err = worktreeFS(g); err != nil {
				return nil, err
			}
			name = "the working tree"
		} else {
			snap, err := snapshot(repo, rev)
			if err != nil {
				return nil, err
			}
			fsys = snap.FS
		}
		e, err := evaluate(fsys, name)
		if err == nil && e.prog != nil {
			e.prog.ReleaseSource() // a diff needs no positions: free the CUE values
		}
		return e, err
	}
	a, err := side(revA)
	if err != nil {
		return err
	}
	b, err := side(revB)
	if err != nil {
		return err
	}
	nameB := revB
	if nameB == "" {
		nameB = "working tree"
	}
	for _, s := range []struct {
		name string
		e    *evaluation
	}{{revA, a}, {nameB, b}} {
		if s.e.prog == nil {
			return errorsAt(g, s.name, s.e.diags)
		}
	}
	if o.agent != "" && !hasAgent(a, o.agent) && !hasAgent(b, o.agent) {
		return unknownName("agent", o.agent, append(model.Sorted(a.prog.Config.Agents), model.Sorted(b.prog.Config.Agents)...))
	}
	da, db, err := changedDocs(a, b, o.agent)
	if err != nil {
		return fail(err, "")
	}
	report := &diff.Report{From: revA, To: nameB, Changes: diff.Agents(da, db)}
	if o.agent == "" {
		report.Changes = append(report.Changes, declarationChanges(a, b)...)
	}
	switch o.format {
	case "json":
		err = writeJSON(g.stdout, report)
	case "markdown":
		err = report.WriteMarkdown(g.stdout)
	default:
		err = report.WriteText(g.stdout)
	}
	if err != nil {
		return err
	}
	if o.exitCode && len(report.Changes) > 0 {
		return findings()
	}
	return nil
}

// changedDocs returns the agent.json objects of the agents (or only the one
// named only) whose documents differ between a and b, by id. An agent
// whose document is the same on both sides has no changes, and is left
// out of both: most agents, in most diffs.
func changedDocs(a, b *evaluation, only string) (da, db map[string]map[string]any, err error) {
	ra, err := a.agentJSONs(only)
	if err != nil {
		return nil, nil, err
	}
	rb, err := b.agentJSONs(only)
	if err != nil {
		return nil, nil, err
	}
	da, db = map[string]map[string]any{}, map[string]map[string]any{}
	for _, side := range []struct {
		raw, other map[string][]byte
		docs       map[string]map[string]any
	}{{ra, rb, da}, {rb, ra, db}} {
		for id, raw := range side.raw {
			if other, ok := side.other[id]; ok && bytes.Equal(raw, other) {
				continue
			}
			doc, _, err := bundle.DecodeAgent(raw)
			if err != nil {
				return nil, nil, err
			}
			side.docs[id] = doc
		}
	}
	return da, db, nil
}

func hasAgent(e *evaluation, id string) bool {
	_, ok := e.prog.Config.Agents[id]
	return ok
}

// declarationChanges diffs every declaration other than agents.
func declarationChanges(a, b *evaluation) []diff.Change {
	side := func(e *evaluation) map[string]any {
		c := e.prog.Config
		return toJSON(map[string]any{
			"categories": c.Categories, "agentTypes": c.AgentTypes, "presets": c.Presets,
			"behaviorTypes": c.BehaviorTypes, "profiles": e.prog.Profiles, "tests": c.Tests,
			"models": c.Models, "lint": c.Lint, "a2a": c.A2A,
		})
	}
	sa, sb := side(a), side(b)
	if sa == nil || sb == nil {
		return nil
	}
	var out []diff.Change
	for _, k := range model.Sorted(sa) {
		out = append(out, diff.Values([]string{k}, sa[k], sb[k])...)
	}
	return out
}

// toJSON converts a model value to its JSON object form (nil if it cannot
// be encoded, which the model's types rule out).
func toJSON(v any) map[string]any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	return m
}
