package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/artifact/bundlefile"
	"github.com/charter-dev/charter/internal/artifact/rebuild"
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
	noCache bool
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
previous bundle untouched. Building the working tree into --out alone
(no --archive, --sign-key or --rev) goes through charter's cache: after
an edit of files that declare agents and nothing else, only what those
agents' declarations change is evaluated, rendered and written again
(the bundle is the one a full build gives, byte for byte); anything
else is a full build. --archive also (or instead, with --out "")
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
	cmd.Flags().BoolVar(&o.noCache, "no-cache", false, "build in full, neither reading nor writing charter's cache of the last build (CHARTER_CACHE_DIR=off does the same)")
	cmd.Flags().StringVar(&o.signKey, "sign-key", "", "sign manifest.json (manifest.jws) and every Agent Card (A2A v1.0 JWS) with this PEM private key: ECDSA P-256 (or Ed25519, which cosign cannot check)")
	o.register(cmd, false)
	return cmd
}

func runBuild(g *globals, o *buildOptions) error {
	if o.out == "" && o.archive == "" {
		return usage("nothing to write: give --out DIR, --archive FILE.tar.gz, or both")
	}
	// The working tree into --out alone goes through the cache; a
	// signature, an archive or a commit's versions take a full build.
	var session *rebuild.Session
	if dir := cacheDir(g, o.noCache); dir != "" && o.out != "" && o.archive == "" && o.signKey == "" && o.rev == "" {
		var err error
		if session, err = rebuild.Open(o.source(g), rebuild.Options{Cache: dir, Out: o.out, Log: cacheLog(g)}); err != nil {
			return err
		}
		defer session.Close()
	}
	if o.out != "" {
		if err := bundle.CheckOutOver(o.out, g.dir, session.Known()); err != nil {
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
	if session != nil {
		if done, err := buildOver(g, o, session); done || err != nil {
			return err
		}
	}
	b, err := buildTree(g, o.source(g), sign, session)
	if err != nil {
		return err
	}
	tree := b.tree
	if o.out != "" {
		st, err := writeDir(o.out, tree, session.Known())
		if err != nil {
			return withHint(fmt.Errorf("writing %s: %w", o.out, err), "the previous bundle, if any, is untouched")
		}
		if session != nil {
			session.WroteFull(b.rec, tree, b.shaped, st)
		}
		g.summaryf(g.stdout, "wrote %s: %s, %d files\n", o.out, plural(len(b.prog.Agents), "agent"), len(tree))
	}
	if o.archive != "" {
		return writeArchive(g, o.archive, tree, b.commit)
	}
	return nil
}

// buildOver builds over the previous bundle, when the session can; done
// is false when the build must be a full one.
func buildOver(g *globals, o *buildOptions, s *rebuild.Session) (done bool, err error) {
	info := buildinfo.Read()
	u, ok := s.Incremental(bundle.Options{CharterVersion: info.Version, CUEVersion: info.CUEVersion})
	if !ok {
		return false, nil
	}
	st, err := writeOver(o.out, u.Files, u.Data, s.Known())
	if errors.Is(err, bundle.ErrStale) {
		if w := cacheLog(g); w != nil {
			textf(w, "charter: cache: %v: a full build\n", err)
		}
		return false, nil
	}
	if err != nil {
		return false, withHint(fmt.Errorf("writing %s: %w", o.out, err), "the previous bundle, if any, is untouched")
	}
	s.Wrote(u, st)
	g.summaryf(g.stdout, "wrote %s: %s, %d files\n", o.out, plural(u.Agents, "agent"), len(u.Files))
	return true, nil
}

// writeArchive writes the bundle as a reproducible tar.gz to name.
func writeArchive(g *globals, name string, tree bundlefile.Tree, src *bundlefile.Source) error {
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

// built is a bundle built in memory and what it was built from.
type built struct {
	tree   bundlefile.Tree
	prog   *compiler.Program
	commit *bundlefile.Source
	rec    *rebuild.Recording
	shaped []string
}

// buildTree evaluates src and builds its bundle in memory, signing every
// card with sign when it is set. It returns the program (its CUE values
// released) and the commit the bundle was built from (nil for the working
// tree or the index). With a session it evaluates the files the session
// read and returns what the session keeps of the evaluation, and the
// files of the tree that hold a credential's shape.
func buildTree(g *globals, src revision.Source, sign *cardsign.Signer, session *rebuild.Session) (*built, error) {
	var rev *revision.Revision
	var err error
	if session != nil {
		rev, err = new(revision.Evaluator).EvaluateFS(session.FS(), session.Name())
	} else {
		rev, err = evaluate(g, src)
	}
	if err != nil {
		return nil, err
	}
	prog, err := program(g, rev, false)
	if err != nil {
		return nil, err
	}
	// A bundle is copied to every runtime: it carries no credential that
	// lint finds, whatever lint's settings, unless an ignore with a
	// reason says it is none; and what the bundle holds is judged too.
	guard := lint.Credentials(prog, rev.Validation.Repo().Files)
	if len(guard.Findings) > 0 {
		if err := writeConfigDiagnostics(g, guard.Findings); err != nil {
			return nil, err
		}
		return nil, refuseCredentials(len(guard.Findings))
	}
	var commit *bundlefile.Source
	var versions map[string]int
	if c := rev.Commit; c != nil {
		commit = &bundlefile.Source{Commit: c.Hash, Tree: c.Tree, Time: c.Time, Root: "."}
		if _, rel, err := reportBase(g); err == nil && rel != "" {
			commit.Root = rel
		}
	}
	var rec *rebuild.Recording
	if session != nil {
		rec = session.Record(rev.Validation.Repo().Files, prog, guard)
	}
	prog.ReleaseSource()
	rev = nil // the CUE values: garbage from here on
	if commit != nil {
		if versions, err = buildVersions(g, src.Rev, prog.Config.Agents); err != nil {
			return nil, err
		}
	}
	info := buildinfo.Read()
	opts := bundle.Options{CharterVersion: info.Version, CUEVersion: info.CUEVersion, Source: commit, Versions: versions}
	if sign != nil {
		opts.SignCard, opts.SignManifest = sign.Sign, sign.SignManifest
	}
	if rec != nil {
		opts.Team = rec.Team
	}
	tree, err := bundle.Build(prog, opts)
	if err != nil {
		return nil, fmt.Errorf("building the bundle: %w", err)
	}
	leaks, shaped := bundle.Scan(tree, guard.Excused)
	if len(leaks) > 0 {
		for _, l := range leaks {
			textf(g.stderr, "%s: error: [secret-literal] %s\n", l.File, strings.TrimPrefix(l.String(), l.File+": "))
		}
		return nil, refuseCredentials(len(leaks))
	}
	return &built{tree: tree, prog: prog, commit: commit, rec: rec, shaped: shaped}, nil
}

// refuseCredentials is build's refusal of n credentials.
func refuseCredentials(n int) error {
	return &exitErr{code: exitFindings, err: fmt.Errorf("refusing to build a bundle with %s in it", plural(n, "literal credential")),
		hint: "read each at run time (\"env:NAME\"), or, when one is no credential, say so above it: // charter:ignore secret-literal REASON"}
}
