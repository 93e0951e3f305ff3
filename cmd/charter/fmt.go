package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/internal/atomicfile"
	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/editor/cuefmt"
	"github.com/charter-dev/charter/internal/output/diag"
)

type fmtOptions struct {
	check bool
	diff  bool
}

func newFmtCmd(g *globals) *cobra.Command {
	o := &fmtOptions{}
	cmd := &cobra.Command{
		Use:   "fmt [--check] [--diff]",
		Short: "Format the repository's CUE files",
		Long: `fmt rewrites every .cue file under the config root in CUE's canonical
format (the formatter of the CUE version charter embeds). --check changes
nothing and exits 1 when a file would change, listing it; --diff prints
what would change as a unified diff and changes nothing. A file with a
syntax error is reported at its position and left untouched.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runFmt(g, o) },
	}
	cmd.Flags().BoolVar(&o.check, "check", false, "change nothing; exit 1 when a file is not formatted")
	cmd.Flags().BoolVar(&o.diff, "diff", false, "change nothing; print a diff of what would change")
	return cmd
}

func runFmt(g *globals, o *fmtOptions) error {
	fsys, err := revision.Worktree(g.dir)
	if err != nil {
		return err
	}
	paths, _, err := load.CUEFiles(fsys)
	if err != nil {
		return fmt.Errorf("cannot read %s: %w", g.dir, err)
	}
	var bad []diag.Diagnostic
	changed := 0
	for _, p := range paths {
		ch, ds, err := fmtFile(g, o, p)
		if err != nil {
			return err
		}
		bad = append(bad, ds...)
		if ch {
			changed++
		}
	}
	if len(bad) > 0 {
		_ = writeDiagnostics(g, "text", diag.Sort(bad))
		g.summaryf(g.stderr, "charter: %s; files with syntax errors were left unchanged\n", countBySeverity(bad))
		return findings()
	}
	if (o.check || o.diff) && changed > 0 {
		if o.check {
			fmt.Fprintf(g.stderr, "charter: %s not formatted; run charter fmt\n", plural(changed, "file"))
		}
		return findings()
	}
	return nil
}

// fmtFile formats the file p of the config root as o says: it rewrites it,
// lists it (--check) or prints its diff (--diff). It reports whether the
// file was not formatted, and its syntax errors, when it has any (the file
// is then left as it is).
func fmtFile(g *globals, o *fmtOptions, p string) (bool, []diag.Diagnostic, error) {
	name := filepath.Join(g.dir, filepath.FromSlash(p))
	src, err := os.ReadFile(name)
	if err != nil {
		return false, nil, err
	}
	out, ds := cuefmt.Source(p, src)
	if ds != nil {
		return false, ds, nil
	}
	if bytes.Equal(src, out) {
		return false, nil, nil
	}
	switch {
	case o.diff:
		if _, err := g.stdout.Write(diff.Diff(p, src, p+" (formatted)", out)); err != nil {
			return true, nil, err
		}
	case o.check:
		textf(g.stdout, "%s\n", p)
	default:
		if err := atomicfile.Write(name, out, atomicfile.PermOf(name, 0o644)); err != nil {
			return true, nil, err
		}
		textf(g.stdout, "formatted %s\n", p)
	}
	return true, nil, nil
}
