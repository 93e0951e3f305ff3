package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/interop/export"
	"github.com/charter-dev/charter/render"
)

var exportFormats = []string{"claude-code", "a2a", "a2a-v0.3"}

func newExportCmd(g *globals) *cobra.Command {
	var to string
	cmd := &cobra.Command{
		Use:   "export AGENT --to claude-code|a2a|a2a-v0.3",
		Short: "Print one agent in another ecosystem's file format",
		Long: `export prints AGENT as:

  claude-code  a Claude Code subagent file (.claude/agents/<name>.md):
               frontmatter with name, description, tools and model, and
               the compiled system prompt as the body
  a2a          an A2A Agent Card, protocol v1.0 (as card.json in the bundle)
  a2a-v0.3     an A2A Agent Card in the v0.3 shape many SDKs still read

For claude-code, tools are the Claude Code names of the agent's effective
tools (what its behaviors provide, narrowed by tools.allowed, minus
tools.denied, by access_level), from the runtimes."claude-code" table of
the standard library (Read: read_file, Edit and Write: write_file, Bash:
run_bash, ...; users add their own, mcp__server__tool among them), and
disallowedTools the names of the tools it is denied. Whenever the agent
has tools or restricts them the tools line is written, as an empty list
when none of its tools has a Claude Code name (said on stderr): a
subagent without the line gets every tool. model is opus, sonnet or haiku
when the model id names one, else inherit. The front matter is YAML,
quoted wherever a plain value would read as something else.`,
		Args: takes(1, "AGENT"),
		RunE: func(cmd *cobra.Command, args []string) error { return runExport(g, args[0], to) },
	}
	cmd.Flags().StringVar(&to, "to", "", "format: claude-code, a2a or a2a-v0.3")
	return cmd
}

func runExport(g *globals, id, to string) error {
	if !slices.Contains(exportFormats, to) {
		if to == "" {
			return usage("--to is required; valid formats: %s", strings.Join(exportFormats, ", "))
		}
		return unknownName("export format", to, exportFormats)
	}
	prog, a, err := compiledAgent(g, id)
	if err != nil {
		return err
	}
	p, err := render.Render(prog, a)
	if err != nil {
		return err
	}
	card, err := bundle.AgentCard(prog, a, p.String())
	if err != nil {
		return err
	}
	var out []byte
	switch to {
	case "a2a":
		out, err = bundle.Pretty(card)
	case "a2a-v0.3":
		out, err = bundle.Pretty(card.V03())
	case "claude-code":
		var notes []string
		out, notes, err = export.ClaudeCodeSubagent(a, card.Description, p.String())
		if err == nil {
			for _, n := range notes {
				textf(g.stderr, "charter: %s\n", n)
			}
		}
	}
	if err != nil {
		return err
	}
	if _, err := g.stdout.Write(out); err != nil {
		return err
	}
	return nil
}
