package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/spf13/cobra"

	"strings"

	"github.com/charter-dev/charter/bundle"
	"github.com/charter-dev/charter/source"

	"github.com/charter-dev/charter/diag"
	"github.com/charter-dev/charter/load"
	"github.com/charter-dev/charter/revision"
	"github.com/charter-dev/charter/validate"
)

// loaded is a validated repository and what loading it reported.
type loaded struct {
	*validate.Result
	// Files counts the .cue files read.
	Files int
}

// loadWorktree loads and validates the config root in the working tree.
func loadWorktree(g *globals) (*loaded, error) {
	fsys, err := worktreeFS(g)
	if err != nil {
		return nil, err
	}
	return loadFS(fsys, g.dir)
}

// worktreeFS opens the config root in the working tree.
func worktreeFS(g *globals) (fs.FS, error) {
	fi, err := os.Stat(g.dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fail(fmt.Errorf("config root %s does not exist", g.dir), "pass the directory of your charter repository with -C DIR, or create one with charter init")
	case err != nil:
		return nil, fail(fmt.Errorf("cannot read config root: %v", err), "")
	case !fi.IsDir():
		return nil, fail(fmt.Errorf("config root %s is not a directory", g.dir), "-C takes the directory that holds your .cue files")
	}
	fsys, err := revision.OpenDir(g.dir)
	if err != nil {
		return nil, fail(err, "")
	}
	return fsys, nil
}

// revFlags select what to read: the working tree (default), the Git index
// (--staged) or a commit (--rev).
type revFlags struct {
	rev    string
	staged bool
}

func (r *revFlags) register(cmd *cobra.Command, staged bool) {
	cmd.Flags().StringVar(&r.rev, "rev", "", "read the config root as of this Git revision (branch, tag, commit, HEAD~2, or REV:PATH) instead of the working tree")
	if staged {
		cmd.Flags().BoolVar(&r.staged, "staged", false, "read the staged content (the Git index), as a pre-commit hook needs")
	}
}

// loadRev loads what r selects. src describes the commit when one was read.
func loadRev(g *globals, r *revFlags) (l *loaded, src *bundle.Source, err error) {
	if r.rev == "" && !r.staged {
		l, err := loadWorktree(g)
		return l, nil, err
	}
	if r.rev != "" && r.staged {
		return nil, nil, usage("--rev and --staged exclude each other: choose one")
	}
	repo, err := openRepo(g)
	if err != nil {
		return nil, nil, err
	}
	defer repo.Close()
	if r.staged {
		fsys, err := repo.Index()
		if err != nil {
			return nil, nil, fail(err, "")
		}
		l, err := loadFS(fsys, g.dir+" (staged)")
		return l, nil, err
	}
	snap, err := snapshot(repo, r.rev)
	if err != nil {
		return nil, nil, err
	}
	l, err = loadFS(snap.FS, r.rev)
	if err != nil {
		return nil, nil, err
	}
	return l, &bundle.Source{Commit: snap.CommitHash.String(), Tree: snap.TreeHash.String(), Time: snap.Committer.When}, nil
}

// openRepo opens the Git repository that holds the config root.
func openRepo(g *globals) (*source.Repo, error) {
	repo, err := source.Open(g.dir)
	if err != nil {
		return nil, fail(err, "")
	}
	return repo, nil
}

// snapshot reads a revision, split as REV:PATH by charter itself.
func snapshot(repo *source.Repo, rev string) (*source.Snapshot, error) {
	r, p, hasPath, err := source.SplitRevPath(rev)
	if err != nil {
		return nil, usage("%v", err)
	}
	var snap *source.Snapshot
	if hasPath {
		snap, err = repo.CommitPath(r, p)
	} else {
		snap, err = repo.Commit(r)
	}
	if err != nil {
		return nil, fail(err, "")
	}
	return snap, nil
}

// loadFS loads and validates a config root given as a file system.
func loadFS(fsys fs.FS, name string) (*loaded, error) { return loadWith(nil, fsys, name) }

// loadWith is loadFS in the loader's CUE context (nil for a new one).
func loadWith(ld *load.Loader, fsys fs.FS, name string) (*loaded, error) {
	repo, ds, err := ld.Load(fsys, name)
	if err != nil {
		var nf *load.NoFilesError
		if errors.As(err, &nf) {
			return nil, fail(err, "")
		}
		return nil, fail(fmt.Errorf("cannot read %s: %v", name, err), "")
	}
	res := validate.Run(repo)
	res.Diagnostics = diag.Sort(append(ds, res.Diagnostics...))
	return &loaded{Result: res, Files: len(repo.Files)}, nil
}

// writeDiagnostics prints ds in the chosen format: text to stderr, data
// formats to stdout.
func writeDiagnostics(g *globals, format string, ds []diag.Diagnostic) error {
	switch format {
	case "text":
		return writeTextDiagnostics(g, ds)
	case "json":
		b, err := diag.JSON(ds)
		if err != nil {
			return err
		}
		_, err = g.stdout.Write(b)
		return err
	}
	return usage("unknown format %q; valid formats: text, json", format)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	if strings.HasSuffix(word, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(word, "y"))
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// countBySeverity says "2 errors, 1 warning".
func countBySeverity(ds []diag.Diagnostic) string {
	var e, w, i int
	for _, d := range ds {
		switch d.Severity {
		case diag.Error:
			e++
		case diag.Warning:
			w++
		default:
			i++
		}
	}
	s := plural(e, "error")
	if w > 0 {
		s += ", " + plural(w, "warning")
	}
	if i > 0 {
		s += ", " + fmt.Sprintf("%d info", i)
	}
	return s
}
