package main

import (
	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/internal/editor/schema"
)

type schemaOptions struct {
	format string
	target string
}

func newSchemaCmd(g *globals) *cobra.Command {
	o := &schemaOptions{}
	cmd := &cobra.Command{
		Use:   "schema [--format cue|jsonschema] [--for repo|agent|profile]",
		Short: "Print the schema, for editors and other tools",
		Long: `schema prints charter's schema. It reads no repository.

--format cue (the default) prints the CUE definitions every repository is
checked against (#Config is the whole repository), as one file of package
charter. --format jsonschema (or json) prints a JSON Schema (draft 2020-12)
generated from the same definitions.

--for picks what the schema describes: repo (the default), a charter
repository's whole value, the standard library and your files unified, as
cue export prints it; agent, a bundle's agents/<id>/agent.json; profile, a
bundle's profiles/<name>.json. The JSON Schema is a guide for editors and a
contract for tools that read the bundle; charter validate remains the
authority on a repository (it also checks names, options and references).
docs/editors.md shows how to use it.`,
		Example: `  charter schema > charter-schema.cue
  charter schema --format jsonschema > charter.schema.json
  charter schema --format jsonschema --for agent > agent.schema.json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runSchema(g, o) },
	}
	formatVar(cmd, &o.format, "cue", "jsonschema").alias("json", "jsonschema")
	cmd.Flags().StringVar(&o.target, "for", "repo", "what the schema describes: repo, agent (agent.json) or profile (profiles/<name>.json)")
	return cmd
}

func runSchema(g *globals, o *schemaOptions) error {
	t, err := schema.ParseTarget(o.target)
	if err != nil {
		return usage("--for: %v", err)
	}
	var b []byte
	switch o.format {
	case "cue":
		b, err = schema.CUE(t)
	case "jsonschema":
		b, err = schema.JSONSchema(t)
	}
	if err != nil {
		return err
	}
	_, err = g.stdout.Write(b)
	return err
}
