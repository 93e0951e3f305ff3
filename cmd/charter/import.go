package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/interop/importer"
	"github.com/charter-dev/charter/internal/output/diag"
)

type importOptions struct {
	from  string
	out   string
	force bool
}

func newImportCmd(g *globals) *cobra.Command {
	o := &importOptions{}
	cmd := &cobra.Command{
		Use:   "import FILE [--from FORMAT] [--out DIR] [--force]",
		Short: "Convert a seed system's configuration file to charter declarations in CUE",
		Long: `import reads an agent configuration in the format of another system and
writes it as charter declarations, one formatted .cue file each: EchoForge's
behavior_config JSON (an agent type, or a preset), Jetbox's behaviors YAML
(an agent), the behavior engine's app YAML (an agent, its type and its rule
profile) and SynthOrg's agent identity YAML (an agent), and charter's own
agent.json. The format is told from the content (--from names it when it
cannot be); ids are made into slugs, and the mapping is printed.

Every key of the file lands in a CUE field or is listed, at its line, as not
carried over: then import exits 1 and writes nothing, unless --force. Values
charter rejects are written as the file has them, and the result is
validated: fix what validate reports in the CUE. A declaration or file that
exists is not replaced without --force. Files go into the config root's
agents/, types/, profiles/ and presets/, or all into --out DIR. See
docs/import.md.`,
		Args: takes(1, "FILE"),
		RunE: func(cmd *cobra.Command, args []string) error { return runImport(g, o, args[0]) },
	}
	cmd.Flags().StringVar(&o.from, "from", "", "the file's format: "+strings.Join(importer.FormatNames(), ", ")+" (default: told from the content)")
	cmd.Flags().StringVar(&o.out, "out", "", "folder for the files, inside the config root (a path from the current folder, as build's --out; default: the root's agents/, types/, profiles/, presets/)")
	cmd.Flags().BoolVar(&o.force, "force", false, "write what can be carried over even when keys cannot be, and replace existing declarations")
	return cmd
}

func runImport(g *globals, o *importOptions, file string) error {
	res, err := importer.Run(importer.Options{File: file, From: o.from, Root: g.dir, Out: o.out, Force: o.force})
	if err != nil {
		var ie *importer.Error
		var re *revision.Error
		switch {
		case errors.As(err, &ie):
			return withHint(ie.Err, ie.Hint)
		case errors.As(err, &re):
			return withHint(re.Err, re.Hint)
		}
		return err
	}
	printImport(g, res, file)
	report := res.Report()
	if err := writeTextDiagnostics(g, report); err != nil {
		return err
	}
	switch {
	case len(res.Problems) > 0:
		fmtErrors(g, report)
		return findings()
	case res.Blocked():
		g.summaryf(g.stderr, "charter: %s; nothing written (--force writes what can be carried over)\n", countBySeverity(report))
		return findings()
	}
	if s, _ := diag.Max(report); s == diag.Error {
		g.summaryf(g.stderr, "charter: %s; fix them in the files written\n", countBySeverity(report))
		return findings()
	}
	return nil
}

// printImport prints what import read and wrote: the format, each
// declaration and where it went, the notes, the files.
func printImport(g *globals, res *importer.Result, file string) {
	if res.Format != nil {
		if res.Reason != "" {
			textf(g.stdout, "%s: read as %s (%s)\n", file, res.Format.Title, res.Reason)
		} else {
			textf(g.stdout, "%s: read as %s (--from)\n", file, res.Format.Title)
		}
	}
	for _, d := range res.Decls {
		line := fmt.Sprintf("  %s %q -> %s", d.Noun(), d.From, d.ID)
		if d.Why != "" {
			line += " (" + d.Why + ")"
		}
		if d.Exists {
			line += ", which exists: used as it is"
		}
		textf(g.stdout, "%s\n", line)
	}
	for _, n := range res.Notes {
		textf(g.stdout, "note: %s\n", n)
	}
	if res.Aliases > 0 && len(res.Problems) == 0 {
		fmt.Fprintf(g.stdout, "note: YAML aliases expanded: %d (CUE has no anchors; the values are written out)\n", res.Aliases)
	}
	for _, w := range res.Written {
		textf(g.stdout, "wrote %s\n", w)
	}
	if res.Equal {
		textf(g.stdout, "the imported agent equals %s\n", file)
	}
}
