package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/atomicfile"
	"github.com/charter-dev/charter/internal/buildinfo"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/release/cardsign"
	"github.com/charter-dev/charter/lint"
)

type buildOptions struct {
	out     string
	archive string
	signKey string
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
SOURCE_DATE_EPOCH (or the source commit, or 1970); it replaces only a
previous archive of a charter bundle, never another file.

build refuses (exit 1) a repository in which lint's secret-literal rule
finds a credential (a literal, or a value built from parts), or whose
bundle would hold one in any file, whatever lint.disable and lint.severity
say, unless an ignore comment with a reason silences it at the value's
line: a bundle is copied to every runtime.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runBuild(g, o) },
	}
	cmd.Flags().StringVar(&o.out, "out", "dist", "directory to write the bundle into (\"\" to skip)")
	cmd.Flags().StringVar(&o.archive, "archive", "", "also write the bundle as a reproducible .tar.gz")
	cmd.Flags().StringVar(&o.signKey, "sign-key", "", "sign manifest.json (manifest.jws) and every Agent Card (A2A v1.0 JWS) with this PEM private key: ECDSA P-256 (or Ed25519, which cosign cannot check)")
	o.register(cmd, false)
	return cmd
}

func runBuild(g *globals, o *buildOptions) error {
	if o.out == "" && o.archive == "" {
		return usage("nothing to write: give --out DIR, --archive FILE.tar.gz, or both")
	}
	if o.out != "" {
		if err := bundle.CheckOut(o.out, g.dir); err != nil {
			return err
		}
	}
	if o.archive != "" {
		if err := bundle.CheckArchive(o.archive); err != nil {
			return err
		}
	}
	sign, err := readSignKey(o.signKey)
	if err != nil {
		return err
	}
	tree, prog, commit, err := buildTree(g, o.source(g), sign)
	if err != nil {
		return err
	}
	if o.out != "" {
		if err := writeDir(o.out, tree); err != nil {
			return withHint(fmt.Errorf("writing %s: %w", o.out, err), "the previous bundle, if any, is untouched")
		}
		g.summaryf(g.stdout, "wrote %s: %s, %d files\n", o.out, plural(len(prog.Agents), "agent"), len(tree))
	}
	if o.archive != "" {
		return writeArchive(g, o.archive, tree, commit)
	}
	return nil
}

// writeArchive writes the bundle as a reproducible tar.gz to name.
func writeArchive(g *globals, name string, tree bundle.Tree, src *bundle.Source) error {
	mtime, err := bundle.Epoch(src)
	if err != nil {
		return usage("%w", err)
	}
	archive, err := bundle.Archive(tree, mtime)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(name, archive, atomicfile.PermOf(name, 0o644)); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	g.summaryf(g.stdout, "wrote %s: %d files, %d bytes\n", name, len(tree), len(archive))
	return nil
}

// buildTree evaluates src and builds its bundle in memory, signing every
// card with sign when it is set. It returns the program (its CUE values
// released) and the commit the bundle was built from (nil for the working
// tree or the index).
func buildTree(g *globals, src revision.Source, sign *cardsign.Signer) (bundle.Tree, *compiler.Program, *bundle.Source, error) {
	rev, err := evaluate(g, src)
	if err != nil {
		return nil, nil, nil, err
	}
	prog, err := program(g, rev, false)
	if err != nil {
		return nil, nil, nil, err
	}
	// A bundle is copied to every runtime: it carries no credential that
	// lint finds, whatever lint's settings, unless an ignore with a
	// reason says it is none; and what the bundle holds is judged too.
	guard := lint.Credentials(prog, rev.Validation.Repo().Files)
	if len(guard.Findings) > 0 {
		if err := writeConfigDiagnostics(g, guard.Findings); err != nil {
			return nil, nil, nil, err
		}
		return nil, nil, nil, refuseCredentials(len(guard.Findings))
	}
	var commit *bundle.Source
	var versions map[string]int
	if c := rev.Commit; c != nil {
		commit = &bundle.Source{Commit: c.Hash, Tree: c.Tree, Time: c.Time, Root: "."}
		if _, rel, err := reportBase(g); err == nil && rel != "" {
			commit.Root = rel
		}
	}
	prog.ReleaseSource()
	rev = nil // the CUE values: garbage from here on
	if commit != nil {
		if versions, err = buildVersions(g, src.Rev, prog.Config.Agents); err != nil {
			return nil, nil, nil, err
		}
	}
	info := buildinfo.Read()
	opts := bundle.Options{CharterVersion: info.Version, CUEVersion: info.CUEVersion, Source: commit, Versions: versions}
	if sign != nil {
		opts.SignCard, opts.SignManifest = sign.Sign, sign.SignManifest
	}
	tree, err := bundle.Build(prog, opts)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("building the bundle: %w", err)
	}
	if leaks := bundle.Credentials(tree, guard.Excused); len(leaks) > 0 {
		for _, l := range leaks {
			textf(g.stderr, "%s: error: [secret-literal] %s\n", l.File, strings.TrimPrefix(l.String(), l.File+": "))
		}
		return nil, nil, nil, refuseCredentials(len(leaks))
	}
	return tree, prog, commit, nil
}

// refuseCredentials is build's refusal of n credentials.
func refuseCredentials(n int) error {
	return &exitErr{code: exitFindings, err: fmt.Errorf("refusing to build a bundle with %s in it", plural(n, "literal credential")),
		hint: "read each at run time (\"env:NAME\"), or, when one is no credential, say so above it: // charter:ignore secret-literal REASON"}
}
