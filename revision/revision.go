// Package revision evaluates one revision of a charter repository — the
// working tree, the Git index or a commit — into its validated and compiled
// program, with every diagnostic of loading, validation and compilation.
//
// It is the one place that runs load, validate and compile in sequence.
// An Evaluator shares one CUE context, schema and decoded standard library
// across the revisions it evaluates, so a command that reads many (history,
// diff, an editor server) builds them once.
//
// What a revision that does not validate means is the caller's to decide;
// the contract here is only this: Evaluate returns an error when the
// revision could not be read at all (no such commit, unreadable files, no
// .cue files), and a Revision otherwise. A Revision whose Program is nil
// did not validate or compile; its Diagnostics say why.
package revision

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/charter-dev/charter/bundle"
	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/diag"
	"github.com/charter-dev/charter/load"
	"github.com/charter-dev/charter/source"
	"github.com/charter-dev/charter/validate"
)

// Source selects what to evaluate: the config root Dir in the working tree
// (the default), its staged content (Staged), or the content of a commit
// (Rev: a branch, tag, commit, HEAD~2, or REV:PATH).
type Source struct {
	Dir    string
	Rev    string
	Staged bool
}

// Revision is one evaluated revision.
type Revision struct {
	// Name is what messages call the revision: the config root, the root
	// with " (staged)", or the revision as given.
	Name string
	// Files counts the .cue files read.
	Files int
	// Validation is validate's result; its Config is the decoded model.
	Validation *validate.Result
	// Program is the compiled program, nil when validation or compilation
	// reported an error.
	Program *compiler.Program
	// Diagnostics are those of loading, validation and compilation, sorted.
	Diagnostics []diag.Diagnostic
	// Commit describes the commit read, nil for the working tree and the
	// index.
	Commit *bundle.Source
}

// OK reports whether the revision validated and compiled without errors.
func (r *Revision) OK() bool { return r.Program != nil }

// Agent returns the compiled agent id, or an error listing the ids that
// exist. The revision must be OK.
func (r *Revision) Agent(id string) (*compiler.Agent, error) {
	var ids []string
	for _, a := range r.Program.Agents {
		if a.ID == id {
			return a, nil
		}
		ids = append(ids, a.ID)
	}
	return nil, &UnknownAgentError{ID: id, Known: ids}
}

// UnknownAgentError says that a revision declares no agent of that id.
type UnknownAgentError struct {
	ID    string
	Known []string
}

func (e *UnknownAgentError) Error() string { return fmt.Sprintf("no agent %q", e.ID) }

// Error is a revision that could not be read, with a hint that says what
// to do about it (empty when there is nothing to add).
type Error struct {
	Err  error
	Hint string
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Evaluator evaluates revisions, sharing one CUE context, schema and
// decoded standard library among them. The zero value is ready to use. An
// Evaluator is not safe for concurrent use.
type Evaluator struct {
	loader load.Loader
}

// Evaluate reads and evaluates what src selects.
func (e *Evaluator) Evaluate(src Source) (*Revision, error) {
	switch {
	case src.Rev != "" && src.Staged:
		return nil, &Error{Err: errors.New("--rev and --staged exclude each other: choose one")}
	case src.Rev == "" && !src.Staged:
		fsys, err := Worktree(src.Dir)
		if err != nil {
			return nil, err
		}
		return e.EvaluateFS(fsys, src.Dir)
	}
	repo, err := source.Open(src.Dir)
	if err != nil {
		return nil, &Error{Err: err}
	}
	defer repo.Close()
	if src.Staged {
		fsys, err := repo.Index()
		if err != nil {
			return nil, &Error{Err: err}
		}
		return e.EvaluateFS(fsys, src.Dir+" (staged)")
	}
	snap, err := Snapshot(repo, src.Rev)
	if err != nil {
		return nil, err
	}
	r, err := e.EvaluateFS(snap.FS, src.Rev)
	if err != nil {
		return nil, err
	}
	r.Commit = &bundle.Source{Commit: snap.CommitHash.String(), Tree: snap.TreeHash.String(), Time: snap.Committer.When}
	return r, nil
}

// EvaluateFS evaluates a config root given as a file system; name is what
// messages call it.
func (e *Evaluator) EvaluateFS(fsys fs.FS, name string) (*Revision, error) {
	repo, ds, err := e.loader.Load(fsys, name)
	if err != nil {
		var nf *load.NoFilesError
		if errors.As(err, &nf) {
			return nil, &Error{Err: err}
		}
		return nil, &Error{Err: fmt.Errorf("cannot read %s: %w", name, err)}
	}
	res := validate.Run(repo)
	r := &Revision{Name: name, Files: len(repo.Files), Validation: res}
	ds = append(ds, res.Diagnostics...)
	if res.OK() {
		prog, cds := compiler.Compile(repo, res.Config)
		ds = append(ds, cds...)
		if s, _ := diag.Max(ds); s < diag.Error {
			r.Program = prog
		}
	}
	r.Diagnostics = diag.Sort(ds)
	return r, nil
}

// Worktree opens the config root dir in the working tree.
func Worktree(dir string) (fs.FS, error) {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, &Error{Err: fmt.Errorf("config root %s does not exist", dir), Hint: "pass the directory of your charter repository with -C DIR, or create one with charter init"}
	case err != nil:
		return nil, &Error{Err: fmt.Errorf("cannot read config root: %w", err)}
	case !fi.IsDir():
		return nil, &Error{Err: fmt.Errorf("config root %s is not a directory", dir), Hint: "-C takes the directory that holds your .cue files"}
	}
	fsys, err := OpenDir(dir)
	if err != nil {
		return nil, &Error{Err: err}
	}
	return fsys, nil
}

// OpenDir opens a config root in the working tree (source.Dir). It is a
// variable so that tests can make reading fail as an unreadable file or
// folder does, whoever runs them: CI runs as root, whom chmod does not
// stop (cmd/charter/faults_test.go).
var OpenDir = source.Dir

// Snapshot reads a revision of repo, split as REV:PATH by charter itself.
func Snapshot(repo *source.Repo, rev string) (*source.Snapshot, error) {
	r, p, hasPath, err := source.SplitRevPath(rev)
	if err != nil {
		return nil, &Error{Err: err}
	}
	var snap *source.Snapshot
	if hasPath {
		snap, err = repo.CommitPath(r, p)
	} else {
		snap, err = repo.Commit(r)
	}
	if err != nil {
		return nil, &Error{Err: err}
	}
	return snap, nil
}
