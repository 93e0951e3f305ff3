package source

import (
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
)

// ErrNotRegular is returned (inside an *fs.PathError) when a path names
// something that is neither a regular file nor a directory: a device, a
// socket or a named pipe. charter never opens those.
var ErrNotRegular = errors.New("not a regular file or directory")

// ErrClosed is returned when a file system is read after the Repo that made
// it was closed.
var ErrClosed = errors.New("the repository was closed; open it again")

// NotRepositoryError reports that a directory is not inside a Git working
// tree. Only the commands that read Git need one.
type NotRepositoryError struct {
	// Dir is the directory as the user gave it.
	Dir string
}

func (e *NotRepositoryError) Error() string {
	return fmt.Sprintf("%s is not in a git repository; the working tree can still be validated, linted and built", e.Dir)
}

// UnknownRevisionError reports a revision that names no branch, tag or
// commit.
type UnknownRevisionError struct {
	Rev string
	// Shallow is set when the repository is a shallow clone, where the
	// revision may lie beyond the history that was fetched.
	Shallow bool
}

func (e *UnknownRevisionError) Error() string {
	msg := fmt.Sprintf("unknown revision %q: no branch, tag or commit of that name", e.Rev)
	if e.Shallow {
		msg += "; this is a shallow clone, so it may lie beyond the fetched history: run git fetch --unshallow (in CI, check out with fetch-depth: 0)"
	}
	return msg
}

// AmbiguousRevisionError reports a short hash that matches more than one
// object.
type AmbiguousRevisionError struct {
	Rev     string
	Matches int
}

func (e *AmbiguousRevisionError) Error() string {
	return fmt.Sprintf("revision %q is ambiguous: it is the start of %d object names; give more hex digits", e.Rev, e.Matches)
}

// UnsupportedRevisionError reports revision syntax charter does not accept.
// go-git's revision parser quietly returns HEAD for some of these (HEAD:dir,
// HEAD^{tree}, HEAD@{1}), so charter rejects them itself.
type UnsupportedRevisionError struct {
	Rev string
	// Reason says what part of Rev is not supported.
	Reason string
}

func (e *UnsupportedRevisionError) Error() string {
	return fmt.Sprintf("unsupported revision %q: %s; use a branch, a tag, a commit hash or HEAD, optionally followed by ~N or ^N", e.Rev, e.Reason)
}

// NotCommitError reports a revision that names an object other than a
// commit, for example a tag that points at a tree.
type NotCommitError struct {
	Rev  string
	Hash plumbing.Hash
	Type plumbing.ObjectType
}

func (e *NotCommitError) Error() string {
	return fmt.Sprintf("revision %q names a %s (%s), not a commit; name a commit, a branch or a tag of a commit", e.Rev, e.Type, short(e.Hash))
}

// EmptyRepositoryError reports that HEAD (or the branch it names) has no
// commits yet.
type EmptyRepositoryError struct {
	// Branch is the unborn branch HEAD points at, e.g. refs/heads/main.
	Branch string
}

func (e *EmptyRepositoryError) Error() string {
	return fmt.Sprintf("the repository has no commits yet (HEAD points at %s, which does not exist)", plumbing.ReferenceName(e.Branch).Short())
}

// PathNotFoundError reports that the config root does not exist at a
// revision (or in the index), or is a file there rather than a directory.
type PathNotFoundError struct {
	// Path is relative to the repository root, slash-separated.
	Path string
	// Rev is the revision as the user gave it; "the index" for the index.
	Rev string
	// Commit is the commit Rev resolved to; zero for the index.
	Commit plumbing.Hash
	// NotDir is set when Path exists but is not a directory.
	NotDir bool
}

func (e *PathNotFoundError) Error() string {
	where := "at " + e.Rev
	if !e.Commit.IsZero() {
		where += " (commit " + short(e.Commit) + ")"
	} else if e.Rev == indexRev {
		if e.Path == "." && !e.NotDir {
			return "nothing is staged: the index holds no file; stage the files to check with git add"
		}
		where = "in the index (nothing under it is staged; stage its files with git add)"
	}
	if e.NotDir {
		return fmt.Sprintf("%s is not a directory %s; name the directory that holds the .cue files", e.Path, where)
	}
	return fmt.Sprintf("%s does not exist %s", e.Path, where)
}

// ShallowError reports that an operation needs history a shallow clone
// does not have. git itself would show the boundary commit as the creation
// of every file, so charter refuses instead.
type ShallowError struct {
	// Commit is the boundary commit whose parents are missing.
	Commit plumbing.Hash
	// Op says what needed the history, as a verb phrase, e.g.
	// "walk the history of configs" or "resolve HEAD~5".
	Op string
}

func (e *ShallowError) Error() string {
	op := e.Op
	if op == "" {
		op = "read the history"
	}
	return fmt.Sprintf("cannot %s: this is a shallow clone and its history stops at commit %s; run git fetch --unshallow, or check out with fetch-depth: 0 in CI (actions/checkout)", op, short(e.Commit))
}

// ObjectError reports a Git object that is missing from the repository or
// cannot be decoded.
type ObjectError struct {
	Hash plumbing.Hash
	// What says which object was wanted, e.g. "tree of configs at commit abc1234".
	What string
	// Missing is set when the object is absent; otherwise it is corrupt.
	Missing bool
	// Partial is set when the object is missing from a partial clone
	// (git clone --filter), which fetches objects on demand; charter reads
	// no network.
	Partial bool
	Err     error
}

func (e *ObjectError) Error() string {
	state := "is corrupt"
	if e.Missing {
		state = "is missing"
	}
	what := ""
	if e.What != "" {
		what = " (" + e.What + ")"
	}
	msg := fmt.Sprintf("git object %s%s %s", e.Hash, what, state)
	if e.Partial {
		return msg + "; this is a partial clone (--filter) and charter does not fetch: clone without --filter (in CI, leave actions/checkout's filter unset)"
	}
	if e.Err != nil && !e.Missing {
		msg += ": " + e.Err.Error()
	}
	return msg + "; run git fsck to find the damage, and fetch or clone again"
}

func (e *ObjectError) Unwrap() error { return e.Err }

// UnmergedError reports a file with unresolved merge conflicts in the index.
type UnmergedError struct {
	// Path is relative to the config root.
	Path string
}

func (e *UnmergedError) Error() string {
	return fmt.Sprintf("%s has unresolved merge conflicts in the index; resolve them and git add the file", e.Path)
}

// IndexError reports an index file that cannot be read.
type IndexError struct {
	// File is the index file that was read.
	File string
	Err  error
}

func (e *IndexError) Error() string {
	return fmt.Sprintf("cannot read the git index %s: %v; if it uses a split or sparse index, run git update-index --no-split-index or git sparse-checkout disable", e.File, e.Err)
}

func (e *IndexError) Unwrap() error { return e.Err }

// short abbreviates a hash to 7 hex digits, as git does.
func short(h plumbing.Hash) string {
	return h.String()[:7]
}

const indexRev = "the index"
