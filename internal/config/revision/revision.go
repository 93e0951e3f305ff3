// Package revision evaluates one revision of a charter repository — the
// working tree, the Git index or a commit — into its validated and compiled
// program, with every diagnostic of loading, validation and compilation.
//
// It is the one place that runs load, validate and compile in sequence.
// An Evaluator shares one CUE context, schema and decoded standard library
// across the revisions it evaluates, so a command that reads many (history,
// diff, an editor server) builds them once.
//
// Evaluate returns an *Error when the revision could not be read at all
// (no such commit, unreadable files, no .cue files): the command line ends
// with exit 2 and the error's hint. Otherwise it returns a Revision; one
// whose Program is nil did not validate or compile, and its Diagnostics
// say why.
//
// What a revision that does not validate means is decided once, the same
// for every caller:
//
//   - validate and lint report its diagnostics (lint in its own format,
//     without running a rule) and exit 1: that is their answer.
//   - Every other command needs the program, so it prints the diagnostics
//     and exits 1 without output. When the revision is not the one the
//     command is about but one it compares against (diff's sides, show
//     AGENT@REV, test --against, lint --new-from-rev), the diagnostics are
//     headed "REV does not validate:". lint --new-from-rev used to take such
//     a baseline as empty and report every finding as new, which is
//     indistinguishable from a flood of real regressions; it now stops as
//     diff does, so a broken baseline is named rather than guessed at.
//   - History (charter log, show AGENT@vN) reads many revisions: one that
//     does not validate is a version of no agent (the history package says
//     how each is classified), never an error.
//   - Test helpers fail the test unless the revision is OK, and hand out a
//     Program only then.
package revision

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"cuelang.org/go/cue"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/config/validate"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/internal/repo/source"
)

// Source selects what to evaluate: the config root Dir in the working tree
// (the default), its staged content (Staged), or the content of a commit
// (Rev: a branch, tag, commit, HEAD~2, or REV:PATH).
type Source struct {
	Dir    string
	Rev    string
	Staged bool
	// Name, when set, is what messages call the revision instead of the
	// default (see Revision.Name).
	Name string
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
	Commit *Commit
}

// Commit describes the commit a revision was read from.
type Commit struct {
	Hash string // the commit's hash, hex
	Tree string // its tree's hash, hex
	// Time is the committer's time.
	Time time.Time
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
	o, err := Open(src)
	if err != nil {
		return nil, err
	}
	defer o.Close()
	r, err := e.EvaluateFS(o.FS, o.Name)
	if err != nil {
		return nil, err
	}
	r.Commit = o.Commit
	return r, nil
}

// Opened is what a Source selects, open for reading.
type Opened struct {
	// FS holds the config root's files.
	FS fs.FS
	// Name is what messages call the revision (Revision.Name).
	Name string
	// Commit is the commit read, nil for the working tree and the index.
	Commit *Commit
	close  func()
}

// Close releases what Open opened.
func (o *Opened) Close() {
	if o.close != nil {
		o.close()
	}
}

// Open opens what src selects, for an evaluation that reads it itself
// (EvaluateFS, or a cache that first compares its files).
func Open(src Source) (*Opened, error) {
	switch {
	case src.Rev != "" && src.Staged:
		return nil, &Error{Err: errors.New("a commit and the staged files exclude each other: read one")}
	case src.Rev == "" && !src.Staged:
		fsys, err := Worktree(src.Dir)
		if err != nil {
			return nil, err
		}
		return &Opened{FS: fsys, Name: src.name(src.Dir)}, nil
	}
	repo, err := source.Open(src.Dir)
	if err != nil {
		return nil, &Error{Err: err}
	}
	if src.Staged {
		fsys, err := repo.Index()
		if err != nil {
			repo.Close()
			return nil, &Error{Err: err}
		}
		return &Opened{FS: fsys, Name: src.name(src.Dir + " (staged)"), close: func() { repo.Close() }}, nil
	}
	snap, err := Snapshot(repo, src.Rev)
	if err != nil {
		repo.Close()
		return nil, err
	}
	return &Opened{FS: snap.FS, Name: src.name(src.Rev), close: func() { repo.Close() },
		Commit: &Commit{Hash: snap.CommitHash.String(), Tree: snap.TreeHash.String(), Time: snap.Committer.When}}, nil
}

func (s Source) name(def string) string {
	if s.Name != "" {
		return s.Name
	}
	return def
}

// EvaluateFS evaluates a config root given as a file system; name is what
// messages call it.
func (e *Evaluator) EvaluateFS(fsys fs.FS, name string) (*Revision, error) {
	return e.EvaluateScope(fsys, name, nil)
}

// EvaluateScope is EvaluateFS for a scope of a larger tree: fsys holds
// some of the tree's files, and elsewhere names the agents declared in
// the others, which the authority fields of the files in scope may name.
func (e *Evaluator) EvaluateScope(fsys fs.FS, name string, elsewhere map[string]bool) (*Revision, error) {
	repo, ds, err := e.loader.Load(fsys, name)
	if err != nil {
		var nf *load.NoFilesError
		if errors.As(err, &nf) {
			return nil, &Error{Err: err}
		}
		return nil, &Error{Err: fmt.Errorf("cannot read %s: %w", name, err)}
	}
	res := validate.RunWith(repo, validate.Options{AgentsElsewhere: elsewhere})
	// The loader's diagnostics count as validation's: one that is an error
	// keeps the repository from compiling.
	res.Diagnostics = diag.Sort(append(ds, res.Diagnostics...))
	r := &Revision{Name: name, Files: len(repo.Files), Validation: res, Diagnostics: res.Diagnostics}
	if res.OK() {
		prog, cds := compiler.Compile(repo, res.Config)
		ds := diag.Sort(append(slices.Clip(res.Diagnostics), cds...))
		if s, _ := diag.Max(ds); s < diag.Error {
			r.Program = prog
		}
		r.Diagnostics = ds
	}
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

// Declared is an agent a revision declares, as written: its id and name.
type Declared struct {
	ID   string
	Name string // "" when it has none, or not a plain string
}

// DeclaredAgents lists the agents the config root dir in the working tree
// declares, in id order, reading the user's files only: nothing is
// validated, so it is fast and answers for a repository with errors too
// (completion, an editor).
func (e *Evaluator) DeclaredAgents(dir string) ([]Declared, error) {
	fsys, err := Worktree(dir)
	if err != nil {
		return nil, err
	}
	repo, _, err := e.loader.Load(fsys, dir)
	if err != nil {
		return nil, &Error{Err: fmt.Errorf("cannot read %s: %w", dir, err)}
	}
	it, err := repo.Value.LookupPath(cue.MakePath(cue.Str("agents"))).Fields()
	if err != nil {
		return nil, nil // no agents, or none readable
	}
	var out []Declared
	for it.Next() {
		d := Declared{ID: it.Selector().Unquoted()}
		if name, err := it.Value().LookupPath(cue.MakePath(cue.Str("name"))).String(); err == nil {
			d.Name = name
		}
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b Declared) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}
