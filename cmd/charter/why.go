package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/model"
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
any other field of the agent (model.temperature, personality.openness,
profile) it says where the value is declared.`,
		Example: `  charter why planner behavior.scheduling.ambiguous_time
  charter why coder model.temperature`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error { return runWhy(g, args[0], args[1], format) },
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	return cmd
}

// whyStep is one layer that sets (or could set) a value.
type whyStep struct {
	Layer  string            `json:"layer"`
	Name   string            `json:"name,omitempty"`
	Value  string            `json:"value"`
	Path   string            `json:"path"`
	Pos    compiler.Position `json:"pos"`
	Chosen bool              `json:"chosen"`
}

func runWhy(g *globals, id, path, format string) error {
	if format != "text" && format != "json" {
		return usage("unknown format %q; valid formats: text, json", format)
	}
	c, a, err := compiledAgent(g, id)
	if err != nil {
		return err
	}
	parts := strings.Split(path, ".")
	if parts[0] == "behavior" && len(parts) == 3 {
		return whyBehavior(g, c, a, parts[1], parts[2], format)
	}
	if done, err := whyTypeDefault(g, c, a, parts, path, format); done || err != nil {
		return err
	}
	full := append([]string{"agents", id}, parts...)
	pos := c.Program.Locate(full...)
	if pos.File == "" {
		return usage("agent %s has no value at %s", id, path)
	}
	if format == "json" {
		return writeJSON(g.stdout, map[string]any{"agent": id, "path": path, "pos": pos})
	}
	fmt.Fprintf(g.stdout, "agents.%s.%s is declared at %s\n", id, path, pos)
	return nil
}

func whyBehavior(g *globals, c *compiled, a *compiler.Agent, category, setting, format string) error {
	cfg := c.Program.Config
	cat, ok := cfg.Categories[category]
	if !ok {
		return unknownName("category", category, model.Sorted(cfg.Categories))
	}
	s, ok := cat.Settings[setting]
	if !ok {
		return unknownName("setting of category "+category, setting, model.Sorted(cat.Settings))
	}
	rs, ok := a.Setting(category, setting)
	if !ok && a.Type != nil {
		return fail(fmt.Errorf("agent %s has no %s behavior: its type %s leaves the category out of its prompts (its categories: %s)",
			a.ID, category, a.Decl.Type, model.NameList(a.Type.Categories)),
			fmt.Sprintf("add %s to agentTypes.%s.categories to give its agents that section", category, a.Decl.Type))
	}
	steps := []whyStep{{Layer: "default", Value: s.Default.String(),
		Path: fmt.Sprintf("categories.%s.settings.%s.default", category, setting),
		Pos:  c.Program.Locate("categories", category, "settings", setting, "default")}}
	for _, l := range c.Program.Layers(a) {
		ch, ok := l.Behavior[category][setting]
		if !ok {
			continue
		}
		p := append(slices.Clone(l.Path), category, setting)
		steps = append(steps, whyStep{Layer: l.Origin.Layer, Name: l.Origin.Name, Value: ch.String(), Path: strings.Join(p, "."), Pos: c.Program.Locate(p...)})
	}
	for i := range steps {
		steps[i].Chosen = steps[i].Path == rs.Origin.Path
	}
	if format == "json" {
		return writeJSON(g.stdout, map[string]any{"agent": a.ID, "path": "behavior." + category + "." + setting,
			"value": rs.Value.String(), "text": rs.Text, "steps": steps})
	}
	fmt.Fprintf(g.stdout, "%s: behavior.%s.%s = %s\n", a.ID, category, setting, rs.Value)
	if rs.Text != "" {
		fmt.Fprintf(g.stdout, "  prompt line: %s\n", strings.ReplaceAll(rs.Line, "{text}", rs.Text))
	}
	fmt.Fprintf(g.stdout, "  decided by %s\n", c.Program.Describe(rs.Origin))
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
		fmt.Fprintf(g.stdout, "  %s %-28s %-18s %s\n", mark, who, st.Value, st.Pos)
	}
	return nil
}
