package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/artifact/bundlefile"
	"github.com/charter-dev/charter/internal/output/docsgen"
	"github.com/charter-dev/charter/internal/output/secret"
)

type docsOptions struct {
	out string
	revFlags
}

func newDocsCmd(g *globals) *cobra.Command {
	o := &docsOptions{}
	cmd := &cobra.Command{
		Use:   "docs --out DIR",
		Short: "Write a Markdown reference of the repository's declarations",
		Long: `docs writes a Markdown reference of what the repository declares, so a
team can publish what its agents are and may do: index.md; categories.md
(every category, setting and option with its text and default);
agent-types.md (every agent type with its template, variables and presets,
and every preset); profiles.md (every rule profile with its flattened rules:
trigger, condition, action, message and the profile each came from);
behaviors.md (every behavior type with its parameters and tools);
flows.md when the repository declares flows (each step's agent, needs,
passes and next); and agents/<id>.md (every agent's resolved settings and what decided each,
its tools, rules and authority).

The output is deterministic. --out is written atomically, like build's: a
new or empty directory, or one that holds a previous reference and
nothing else (every file a page charter docs wrote), is replaced; anything
else is refused.`,
		Example: `  charter docs --out site/agents
  charter docs --rev v1.2.0 --out reference-v1.2.0`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runDocs(g, o) },
	}
	cmd.Flags().StringVar(&o.out, "out", "", "directory to write the reference into (required)")
	o.register(cmd, false)
	return cmd
}

func runDocs(g *globals, o *docsOptions) error {
	if o.out == "" {
		return usage("--out is required: name the directory to write the reference into, such as --out docs/agents")
	}
	if err := bundle.CheckOutput(o.out, g.dir, "the reference", "a reference charter docs wrote", docsgen.IsReference); err != nil {
		return err
	}
	rev, err := evaluate(g, o.source(g))
	if err != nil {
		return err
	}
	prog, err := program(g, rev, false)
	if err != nil {
		return err
	}
	files := docsgen.Generate(prog)
	for name, b := range files {
		files[name] = []byte(secret.Redact(string(b))) // a reference is for people: never a credential
	}
	if err := bundle.WriteDir(o.out, bundlefile.Tree(files)); err != nil {
		return withHint(fmt.Errorf("writing %s: %w", o.out, err), "the previous reference, if any, is untouched")
	}
	g.summaryf(g.stdout, "wrote %s: %s, %d files\n", o.out, plural(len(prog.Agents), "agent"), len(files))
	return nil
}
