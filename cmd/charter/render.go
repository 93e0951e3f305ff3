package main

import (
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/internal/output/secret"
	"github.com/charter-dev/charter/render"
)

type renderOptions struct {
	vars    []string
	sources bool
}

func newRenderCmd(g *globals) *cobra.Command {
	o := &renderOptions{}
	cmd := &cobra.Command{
		Use:   "render AGENT [--var NAME=VALUE ...] [--sources]",
		Short: "Print one agent's compiled system prompt",
		Long: `render prints the system prompt charter compiles for AGENT, as
agents/AGENT/prompt.md holds it. --var fills runtime variables (and says
which required ones are still missing); --sources prints, beside each line,
where it came from: the template, the option and which layer chose it
(default, preset, type or agent), the personality field, the behavior.`,
		Args: takes(1, "AGENT"),
		RunE: func(cmd *cobra.Command, args []string) error { return runRender(g, o, args[0]) },
	}
	cmd.Flags().StringArrayVar(&o.vars, "var", nil, "runtime variable NAME=VALUE (repeatable)")
	cmd.Flags().BoolVar(&o.sources, "sources", false, "mark each line with where it came from")
	return cmd
}

func runRender(g *globals, o *renderOptions, id string) error {
	values := map[string]string{}
	for _, kv := range o.vars {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return usage("--var %q: want NAME=VALUE", kv)
		}
		values[k] = v
	}
	prog, a, err := compiledAgent(g, id)
	if err != nil {
		return err
	}
	if err := checkVariables(a, values); err != nil {
		return err
	}
	renderFn := render.Render
	if o.sources {
		renderFn = render.RenderSources
	}
	p, err := renderFn(prog, a)
	if err != nil {
		return err
	}
	// One fill of the whole prompt says which required variables are
	// missing; --sources fills line by line only to print.
	text, err := render.Fill(a, p.String(), values)
	var missing *render.MissingVariableError
	if err != nil && !errors.As(err, &missing) {
		return err
	}
	if o.sources {
		if err := writeSources(g, a, p, values); err != nil {
			return err
		}
	} else {
		// Line feeds are the prompt's own; every other control or
		// invisible character is shown escaped (prompt.md holds them).
		fmt.Fprint(g.stdout, diag.Escape(text, "\n"))
	}
	if missing != nil && len(o.vars) > 0 {
		fmt.Fprintf(g.stderr, "charter: %v; give each with --var NAME=VALUE\n", missing)
		return findings()
	}
	return nil
}

// checkVariables says which --var names no runtime variable of a.
func checkVariables(a *compiler.Agent, values map[string]string) error {
	for k := range values {
		if _, ok := a.Variables[k]; !ok {
			var names []string
			for n := range a.Variables {
				names = append(names, n)
			}
			return unknownName("runtime variable of agent "+a.ID, k, names)
		}
	}
	return nil
}

// writeSources prints each line of the prompt, filled, beside where it
// comes from (--sources).
func writeSources(g *globals, a *compiler.Agent, p *render.Prompt, values map[string]string) error {
	filled := make([]string, len(p.Lines))
	for i, line := range p.Lines {
		lt, err := render.Fill(a, line.Text, values)
		if err != nil && !errors.As(err, new(*render.MissingVariableError)) {
			return err
		}
		filled[i] = lt
	}
	// Each line is printed after its source: the redacting writer would
	// see a PEM key's body lines apart from its header.
	filled = secret.RedactLines(filled)
	tw := tabwriter.NewWriter(g.stdout, 0, 4, 2, ' ', 0)
	for i, line := range p.Lines {
		textf(tw, "%s\t| %s\n", line.Source, filled[i])
	}
	return tw.Flush()
}
