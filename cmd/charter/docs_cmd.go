package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/bundle"
	"github.com/charter-dev/charter/docsgen"
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
behaviors.md (every behavior type with its parameters and tools); and
agents/<id>.md (every agent's resolved settings and what decided each,
its tools, rules and authority).

The output is deterministic. --out is written atomically, like build's: a
new or empty directory, or one that holds a previous reference (its
index.md is charter's), is replaced; anything else is refused.`,
		Example: `  charter docs --out site/agents
  charter docs --rev v1.2.0 --out public/reference`,
		Args: cobra.NoArgs,
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
	if err := checkDocsOut(o.out, g.dir); err != nil {
		return err
	}
	l, _, err := loadRev(g, &o.revFlags)
	if err != nil {
		return err
	}
	c, err := compileLoaded(g, l)
	if err != nil {
		return err
	}
	files := docsgen.Generate(c.Program)
	if err := bundle.WriteDir(o.out, bundle.Tree(files)); err != nil {
		return fail(fmt.Errorf("writing %s: %v", o.out, err), "the previous reference, if any, is untouched")
	}
	g.summaryf(g.stdout, "wrote %s: %s, %d files\n", o.out, plural(len(c.Program.Agents), "agent"), len(files))
	return nil
}

// checkDocsOut refuses an --out that the atomic swap would destroy: a file,
// the config root or a folder holding it, a non-empty folder that is not a
// previous reference.
func checkDocsOut(out, root string) error {
	refuse := func(reason, hint string) error {
		return fail(fmt.Errorf("cannot write the reference to %s: %s", out, reason), hint)
	}
	absOut, err := filepath.Abs(out)
	if err != nil {
		return fail(err, "")
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return fail(err, "")
	}
	if absOut == absRoot || strings.HasPrefix(absRoot+string(filepath.Separator), absOut+string(filepath.Separator)) {
		return refuse("it is (or contains) the config root, which docs would replace", "choose a directory of its own, such as --out docs/agents")
	}
	fi, err := os.Stat(out)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return refuse(err.Error(), "")
	case !fi.IsDir():
		return refuse("it is a file, not a directory", "remove the file or choose another --out")
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		return refuse(err.Error(), "")
	}
	if len(entries) == 0 {
		return nil
	}
	index, err := os.ReadFile(filepath.Join(out, "index.md"))
	if err != nil || !bytes.HasPrefix(index, []byte(docsgen.Marker)) {
		return refuse("it is not empty and holds no reference charter docs wrote, so it may not be replaced", "choose a new or empty directory")
	}
	return nil
}
