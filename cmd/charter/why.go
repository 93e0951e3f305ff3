package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/config/fieldpath"
	"github.com/charter-dev/charter/internal/config/model"
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
profile) it says where the value is declared.`,
		Example: `  charter why planner behavior.scheduling.ambiguous_time
  charter why coder model.temperature
  charter why ravi tools.write_file`,
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
	if done, err := whyTypeDefault(g, prog, a, parts, path, format); done || err != nil {
		return err
	}
	full := append([]string{"agents", id}, parts...)
	pos := prog.Locate(full...)
	if pos.File == "" {
		return usage("agent %s has no value at %s", id, path)
	}
	if format == "json" {
		return writeJSON(g.stdout, map[string]any{"agent": id, "path": path, "pos": pos})
	}
	textf(g.stdout, "%s is declared at %s\n", fieldpath.Path(full), pos)
	return nil
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
