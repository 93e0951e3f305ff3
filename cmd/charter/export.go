package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/bundle"
	"github.com/charter-dev/charter/compiler"
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

For claude-code, tools are the agent's tools.allowed when it declares
them, else the Claude Code tools that match the tools its behaviors bring
(write_file: Write and Edit, read_file: Read, list_dir: Glob, run_bash:
Bash, fetch_page: WebFetch, web_search: WebSearch, delegate_to_executor:
Task); with neither, the line is left out and the subagent inherits every
tool. model is opus, sonnet or haiku when the model id names one, else
inherit.`,
		Args: cobra.ExactArgs(1),
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
		return fail(err, "")
	}
	hash, err := bundle.ContentHash(a, p.String())
	if err != nil {
		return fail(err, "")
	}
	card := bundle.Card(prog, a, hash)
	switch to {
	case "a2a":
		b, err := bundle.Pretty(card)
		if err != nil {
			return fail(err, "")
		}
		g.stdout.Write(b)
	case "a2a-v0.3":
		b, err := bundle.Pretty(card.V03())
		if err != nil {
			return fail(err, "")
		}
		g.stdout.Write(b)
	case "claude-code":
		fmt.Fprint(g.stdout, claudeCodeAgent(a, card.Description, p.String()))
	}
	return nil
}

// claudeTools maps tools that behaviors bring to Claude Code's tools.
var claudeTools = map[string][]string{
	"write_file": {"Write", "Edit"}, "read_file": {"Read"}, "list_dir": {"Glob"}, "run_bash": {"Bash"},
	"fetch_page": {"WebFetch"}, "web_search": {"WebSearch"}, "delegate_to_executor": {"Task"},
}

func claudeCodeAgent(a *compiler.Agent, description, prompt string) string {
	var tools []string
	if len(a.Decl.Tools.Allowed) > 0 {
		tools = slices.Clone(a.Decl.Tools.Allowed)
	} else {
		for _, t := range a.Tools {
			tools = append(tools, claudeTools[t.Name]...)
		}
	}
	slices.Sort(tools)
	tools = slices.Compact(tools)
	model := "inherit"
	if a.Decl.Model != nil {
		for _, m := range []string{"opus", "sonnet", "haiku"} {
			if strings.Contains(strings.ToLower(a.Decl.Model.ModelID), m) {
				model = m
			}
		}
	}
	var b strings.Builder
	b.WriteString("---\n")
	fmt.Fprintf(&b, "name: %s\n", strings.ReplaceAll(a.ID, "_", "-"))
	fmt.Fprintf(&b, "description: %s\n", yamlScalar(description))
	if len(tools) > 0 {
		fmt.Fprintf(&b, "tools: %s\n", strings.Join(tools, ", "))
	}
	fmt.Fprintf(&b, "model: %s\n", model)
	b.WriteString("---\n\n")
	b.WriteString(prompt)
	return b.String()
}

// yamlScalar quotes s as a YAML double-quoted scalar when plain style would
// change its meaning.
func yamlScalar(s string) string {
	if s != "" && !strings.ContainsAny(s, ":#{}[],&*!|>'\"%@`\n") && strings.TrimSpace(s) == s {
		return s
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}
