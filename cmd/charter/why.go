package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/config/fieldpath"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/config/validate"
	"github.com/charter-dev/charter/internal/output/secret"
)

func newWhyCmd(g *globals) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "why AGENT PATH",
		Short: "Say where a resolved value of an agent came from",
		Long: `why explains one resolved value of AGENT. For a behavior setting
(behavior.CATEGORY.SETTING) it lists every layer that could set it, in the
order they apply (category default, the type's presets, the type, the
agent's presets, the agent) and which one won, each with file:line. For
tools.TOOL it says whether the agent may call the tool, which behavior
provides it and, when it may not, the declaration that took it away. For
any other field of the agent (model.temperature, personality.openness,
skills.primary[0].name) it gives the resolved value and where it is
declared; a path the agent has no value at is an error naming the closest
one. owners says who owns the agent (its own owners, else its type's,
else the repository's), where that is declared, and who may approve a
change that widens it (charter review).`,
		Example: `  charter why ann behavior.scheduling.ambiguous_time
  charter why ann model.temperature
  charter why ann tools.run_bash
  charter why ann owners`,
		Args: takes(2, "AGENT", "PATH"),
		RunE: func(cmd *cobra.Command, args []string) error { return runWhy(g, args[0], args[1], format) },
	}
	formatVar(cmd, &format, "text", "json")
	return cmd
}

func runWhy(g *globals, id, path, format string) error {
	prog, a, err := compiledAgent(g, id)
	if err != nil {
		return err
	}
	parts := strings.Split(path, ".")
	if parts[0] == "behavior" && len(parts) == 3 {
		return whyBehavior(g, prog, a, parts[1], parts[2], format)
	}
	if parts[0] == "tools" && len(parts) == 2 && !slices.Contains([]string{"allowed", "denied", "access_level"}, parts[1]) {
		return whyTool(g, prog, a, parts[1], format)
	}
	if path == "owners" {
		return whyOwners(g, prog, a, format)
	}
	if done, err := whyTypeDefault(g, prog, a, parts, path, format); done || err != nil {
		return err
	}
	labels := pathLabels(parts)
	value, err := agentValue(prog, a, labels)
	if err != nil {
		return err
	}
	full := append([]string{"agents", id}, labels...)
	pos := prog.Locate(full...)
	if format == "json" {
		return writeJSON(g.stdout, map[string]any{"agent": id, "path": path, "value": value, "pos": pos})
	}
	b, err := json.Marshal(value)
	if err != nil {
		return err
	}
	textf(g.stdout, "%s: %s = %s\n", id, fieldpath.Path(labels), string(b))
	if pos.File != "" {
		textf(g.stdout, "  declared at %s\n", pos)
	}
	return nil
}

// pathLabels splits the parts of a dotted path into labels, a list's
// index its own ("primary[0]": primary, [0]).
func pathLabels(parts []string) []string {
	var out []string
	for _, p := range parts {
		for {
			i := strings.IndexByte(p, '[')
			if i <= 0 || !strings.HasSuffix(p, "]") {
				break
			}
			out = append(out, p[:i])
			p = p[i:]
			if j := strings.IndexByte(p, ']'); j >= 0 && j < len(p)-1 {
				out = append(out, p[:j+1])
				p = p[j+1:]
				continue
			}
			break
		}
		out = append(out, p)
	}
	return out
}

// agentValue returns the value of agent a at labels: in its resolved
// document (agent.json), or else in its declaration, a credential held by
// a field named like one redacted. A path it has no value at is a usage
// error naming the closest path, or the fields there are.
func agentValue(prog *compiler.Program, a *compiler.Agent, labels []string) (any, error) {
	doc, err := bundle.AgentDocIn(prog, a.ID)
	if err != nil {
		return nil, err
	}
	var decl map[string]any
	if b, err := json.Marshal(prog.Config.Agents[a.ID]); err == nil {
		json.Unmarshal(b, &decl)
	}
	for _, root := range []any{doc, decl} {
		if v, ok := lookupValue(secret.RedactNamed(root), labels); ok {
			return v, nil
		}
	}
	var paths []string
	collectPaths(nil, doc, &paths)
	want := fieldpath.Path(labels).String()
	if c, ok := validate.Closest(want, paths); ok {
		return nil, usage("agent %s has no value at %s; did you mean %q?", a.ID, want, c)
	}
	return nil, usage("agent %s has no value at %s; its fields include: %s", a.ID, want, strings.Join(model.Sorted(doc), ", "))
}

// lookupValue follows labels (field names, list indices as [i]) into v.
func lookupValue(v any, labels []string) (any, bool) {
	for _, l := range labels {
		switch x := v.(type) {
		case map[string]any:
			e, ok := x[l]
			if !ok {
				return nil, false
			}
			v = e
		case []any:
			if !fieldpath.IsIndex(l) {
				return nil, false
			}
			i, _ := strconv.Atoi(l[1 : len(l)-1])
			if i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// collectPaths lists the dotted paths of v's fields (not into lists).
func collectPaths(prefix []string, v any, out *[]string) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	for k, e := range m {
		p := append(slices.Clone(prefix), k)
		*out = append(*out, fieldpath.Path(p).String())
		collectPaths(p, e, out)
	}
}

func whyBehavior(g *globals, prog *compiler.Program, a *compiler.Agent, category, setting, format string) error {
	cfg := prog.Config
	cat, ok := cfg.Categories[category]
	if !ok {
		return unknownName("category", category, model.Sorted(cfg.Categories))
	}
	if _, ok := cat.Settings[setting]; !ok {
		return unknownName("setting of category "+category, setting, model.Sorted(cat.Settings))
	}
	rs, ok := a.Setting(category, setting)
	if !ok && a.Type != nil {
		return withHint(fmt.Errorf("agent %s has no %s behavior: its type %s leaves the category out of its prompts (its categories: %s)",
			a.ID, category, a.Decl.Type, model.NameList(a.Type.Categories)), fmt.Sprintf("add %s to agentTypes.%s.categories to give its agents that section", category, a.Decl.Type))
	}
	steps := prog.Steps(a, category, setting)
	if format == "json" {
		return writeJSON(g.stdout, map[string]any{"agent": a.ID, "path": "behavior." + category + "." + setting,
			"value": rs.Value.String(), "text": rs.Text, "steps": steps})
	}
	textf(g.stdout, "%s: behavior.%s.%s = %s\n", a.ID, category, setting, rs.Value)
	if rs.Text != "" {
		textf(g.stdout, "  prompt line: %s\n", strings.ReplaceAll(rs.Line, "{text}", rs.Text))
	}
	textf(g.stdout, "  decided by %s\n", prog.Describe(rs.Origin))
	fmt.Fprintf(g.stdout, "layers, in the order they apply (the last one wins):\n")
	for _, st := range steps {
		mark := " "
		if st.Chosen {
			mark = "*"
		}
		who := st.Layer
		if st.Name != "" {
			who += " " + st.Name
		}
		textf(g.stdout, "  %s %-28s %-18s %s\n", mark, who, st.Value, st.Pos)
	}
	return nil
}

// whyOwners says who owns agent a, where that is declared, and who may
// approve a change that widens it.
func whyOwners(g *globals, prog *compiler.Program, a *compiler.Agent, format string) error {
	c := prog.Config
	from, path := "the repository", []string{"repository", "owners"}
	switch {
	case len(c.Agents[a.ID].Owners) > 0:
		from, path = "the agent", []string{"agents", a.ID, "owners"}
	case c.AgentTypes[a.Decl.Type] != nil && len(c.AgentTypes[a.Decl.Type].Owners) > 0:
		from, path = "agent type "+a.Decl.Type, []string{"agentTypes", a.Decl.Type, "owners"}
	}
	owners, approvers := c.AgentOwners(a.ID), c.Approvers(a.ID)
	if owners == nil {
		owners = []string{}
	}
	if approvers == nil {
		approvers = []string{}
	}
	pos := prog.Locate(path...)
	if format == "json" {
		return writeJSON(g.stdout, map[string]any{"agent": a.ID, "path": "owners", "value": owners, "from": from, "pos": pos, "approvers": approvers})
	}
	if len(owners) == 0 {
		textf(g.stdout, "%s: owners = none: declare owners on the agent, its type or the repository (repository: owners: [...])\n", a.ID)
	} else {
		textf(g.stdout, "%s: owners = %s\n  from %s", a.ID, strings.Join(owners, ", "), from)
		if pos.File != "" && len(path) > 0 {
			textf(g.stdout, ", declared at %s", pos)
		}
		fmt.Fprintln(g.stdout)
	}
	if to := c.Agents[a.ID].Authority.ReportsTo; to != "" {
		textf(g.stdout, "  reports to %s\n", to)
	}
	textf(g.stdout, "  may approve a widening change: %s\n", cmp.Or(strings.Join(approvers, ", "), "nobody"))
	return nil
}
