package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/bundle"
	"github.com/charter-dev/charter/internal/buildinfo"
)

type buildOptions struct {
	out     string
	archive string
	revFlags
}

func newBuildCmd(g *globals) *cobra.Command {
	o := &buildOptions{}
	cmd := &cobra.Command{
		Use:   "build [--out DIR] [--archive FILE.tar.gz]",
		Short: "Write the bundle: prompts, agent JSON, A2A cards, profiles, team scores and a manifest",
		Long: `build validates and compiles the repository and writes the bundle
(see docs/bundle.md) into --out (default dist), atomically: into a
temporary sibling that then takes its place, so a failed build leaves the
previous bundle untouched. --archive also (or instead, with --out "")
writes the same tree as a reproducible tar.gz whose timestamps come from
SOURCE_DATE_EPOCH (or the source commit, or 1970).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runBuild(g, o) },
	}
	cmd.Flags().StringVar(&o.out, "out", "dist", "directory to write the bundle into (\"\" to skip)")
	cmd.Flags().StringVar(&o.archive, "archive", "", "also write the bundle as a reproducible .tar.gz")
	o.register(cmd, false)
	return cmd
}

func runBuild(g *globals, o *buildOptions) error {
	if o.out == "" && o.archive == "" {
		return usage("nothing to write: give --out DIR, --archive FILE.tar.gz, or both")
	}
	if o.out != "" {
		if err := bundle.CheckOut(o.out, g.dir); err != nil {
			return fail(err, "")
		}
	}
	l, src, err := loadRev(g, &o.revFlags)
	if err != nil {
		return err
	}
	c, err := compileLoaded(g, l)
	if err != nil {
		return err
	}
	prog := c.Program
	prog.ReleaseSource()
	l = nil // the CUE values: garbage from here on
	info := buildinfo.Read()
	tree, err := bundle.Build(prog, bundle.Options{CharterVersion: info.Version, CUEVersion: info.CUEVersion, Source: src})
	if err != nil {
		return fail(fmt.Errorf("building the bundle: %v", err), "")
	}
	if o.out != "" {
		if err := writeDir(o.out, tree); err != nil {
			return fail(fmt.Errorf("writing %s: %v", o.out, err), "the previous bundle, if any, is untouched")
		}
		g.summaryf(g.stdout, "wrote %s: %s, %d files\n", o.out, plural(len(prog.Agents), "agent"), len(tree))
	}
	if o.archive != "" {
		mtime, err := bundle.Epoch(src)
		if err != nil {
			return usage("%v", err)
		}
		var buf bytes.Buffer
		if err := bundle.WriteArchive(&buf, tree, mtime); err != nil {
			return fail(err, "")
		}
		if err := writeFileAtomic(o.archive, buf.Bytes()); err != nil {
			return fail(fmt.Errorf("writing %s: %v", o.archive, err), "")
		}
		g.summaryf(g.stdout, "wrote %s: %d files, %d bytes\n", o.archive, len(tree), buf.Len())
	}
	return nil
}

// writeFileAtomic writes b to name through a temporary sibling and a
// rename. The file keeps its mode when it exists (fmt must not widen a
// 0600 file), else gets 0644.
func writeFileAtomic(name string, b []byte) error {
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(name); err == nil {
		mode = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp-")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), name)
}
