// Package history lists the commits that changed a config root: exactly
// the commits, in the same order, that `git log --format=%H -- ROOT`
// prints.
//
// Like git log's default history simplification, a commit is a version
// only when its config root differs from every parent's; at a merge whose
// config root equals a parent's, only that parent (the first such) is
// followed. Commits are taken newest first by committer time, ties in the
// order git meets them. The walk compares the hash of the config root's
// tree in each commit with its parents' (from the commit-graph file when
// there is one), so a commit outside the root costs a lookup in its root
// tree; go-git's Log with a path filter diffs whole trees and is hundreds
// of times slower.
//
// Each Entry carries the committer, the Reviewed-by and Approved-by
// trailers and whether the commit carries a signature. charter does not
// verify signatures: Signed means a gpgsig header (PGP, SSH or X.509) is
// present, nothing more.
//
// In a shallow clone the walk stops with *source.ShallowError when it
// reaches the boundary: git would show the boundary commit as the creation
// of every file.
package history

import (
	"bytes"
	"cmp"
	"container/heap"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/charter-dev/charter/internal/repo/source"
)

// SignatureStatus says whether a commit carries a signature. It never says
// whether the signature is valid.
type SignatureStatus int

const (
	// Unsigned: the commit has no gpgsig header.
	Unsigned SignatureStatus = iota
	// Signed: the commit has a gpgsig header (PGP, SSH or X.509). charter
	// has not verified it.
	Signed
)

// String returns "unsigned" or "signed".
func (s SignatureStatus) String() string {
	if s == Signed {
		return "signed"
	}
	return "unsigned"
}

// MarshalText implements encoding.TextMarshaler.
func (s SignatureStatus) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Entry is one commit that changed the config root.
type Entry struct {
	Commit plumbing.Hash `json:"commit"`
	// Tree is the hash of the config root's tree at Commit; zero when the
	// commit removed the config root.
	Tree plumbing.Hash `json:"tree"`
	// NotDir is set when the config root at Commit is a file, not a
	// directory; Tree is then the file's blob.
	NotDir bool `json:"-"`
	// Parents are the commit's parents as recorded, not simplified.
	Parents []plumbing.Hash `json:"parents"`
	// ParentTrees hold, for each parent, the hash of its config root's
	// tree (zero where it has none): an agent's versions compare each
	// commit with the parents it came from.
	ParentTrees []plumbing.Hash `json:"-"`
	Author      source.Person   `json:"author"`
	Committer   source.Person   `json:"committer"`
	// Subject is the first line of the message.
	Subject string `json:"subject"`
	// ReviewedBy and ApprovedBy hold the values of the Reviewed-by: and
	// Approved-by: trailers, in order.
	ReviewedBy []string `json:"reviewed_by,omitempty"`
	ApprovedBy []string `json:"approved_by,omitempty"`
	// Signature is Signed when the commit carries a signature, which
	// charter does not verify.
	Signature SignatureStatus `json:"signature"`
}

// MarshalJSON writes the commit, tree and parent ids as 40-digit hex
// strings, as Git prints them (plumbing.Hash alone would be an array of 20
// numbers); tree is null when the commit removed the config root.
func (e *Entry) MarshalJSON() ([]byte, error) {
	type plain Entry // without this method
	parents := make([]string, len(e.Parents))
	for i, p := range e.Parents {
		parents[i] = p.String()
	}
	var tree *string
	if !e.Tree.IsZero() {
		t := e.Tree.String()
		tree = &t
	}
	// An Encoder, not json.Marshal: an address in a trailer keeps its <>
	// (Marshal would write \u003c, which the caller's encoder keeps).
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(struct {
		Commit  string   `json:"commit"`
		Tree    *string  `json:"tree"`
		Parents []string `json:"parents"`
		*plain
	}{e.Commit.String(), tree, parents, (*plain)(e)})
	return bytes.TrimRight(b.Bytes(), "\n"), err
}

// SkipAll, returned by Walk's callback, stops the walk without error.
//
//lint:ignore ST1012 named as io/fs.SkipAll, which it mirrors
var SkipAll = errors.New("skip all remaining commits")

// Walk calls fn for each commit reachable from rev that changed the
// directory root (relative to the top of the repository, slash-separated;
// "." for the whole tree), newest first, exactly as `git log -- root` lists
// them. It stops at the first error fn returns (SkipAll stops it cleanly).
//
// Errors: those of Repo.Resolve for rev; *source.ShallowError when the walk
// reaches the boundary of a shallow clone (the entries before it were
// delivered and are right); *source.ObjectError for a missing or corrupt
// object.
func Walk(repo *source.Repo, rev, root string, fn func(*Entry) error) error {
	root, err := cleanRoot(root)
	if err != nil {
		return err
	}
	start, err := repo.Resolve(rev)
	if err != nil {
		return err
	}
	w := &walker{repo: repo, root: root, nodes: map[plumbing.Hash]*cnode{}}
	return w.walk(start, fn)
}

// All is Walk as an iterator. After an error it yields the error once and
// stops.
func All(repo *source.Repo, rev, root string) iter.Seq2[*Entry, error] {
	return func(yield func(*Entry, error) bool) {
		stopped := false
		err := Walk(repo, rev, root, func(e *Entry) error {
			if !yield(e, nil) {
				stopped = true
				return SkipAll
			}
			return nil
		})
		if err != nil && !stopped {
			yield(nil, err)
		}
	}
}

func cleanRoot(root string) (string, error) {
	r := strings.TrimSuffix(root, "/")
	if root == "" || root == "." {
		return ".", nil
	}
	if !fs.ValidPath(r) {
		return "", fmt.Errorf("invalid config root %q: give a path relative to the top of the repository, with forward slashes and no . or .. elements", root)
	}
	return r, nil
}

// emptyTree is the hash of the tree with no entries: a config root that
// holds it is, to git's path-limited diff, no different from none.
var emptyTree = plumbing.NewHash("4b825dc642cb6eb9a060e54bf8d69288fbee4904")

// state is the config root's entry in one commit; the zero value means the
// root does not exist there.
type state struct {
	mode filemode.FileMode
	hash plumbing.Hash
}

type cnode struct {
	source.Node
	root    state
	rootSet bool
	queued  bool
}

type walker struct {
	repo *source.Repo
	root string
	// nodes holds the commits in the queue, and for a while the parents
	// of the one being compared.
	nodes map[plumbing.Hash]*cnode
	queue queue
	// seen holds the generation number (0 unknown) of each commit queued
	// so far, but for those prune found no child left to queue again.
	seen map[plumbing.Hash]uint64
	// kept is the size of seen after the last prune; prune runs when
	// seen holds twice that, and at least pruneAt (1024 when 0).
	kept, pruneAt int
	// maxSeen is the most seen held (for tests).
	maxSeen int
	seq     uint64
}

// maxGeneration is the largest topological level a commit-graph file
// holds; a commit at it may have a parent at it too.
const maxGeneration = 1<<30 - 1

// prune forgets the commits that no commit still to come can queue again.
// A commit is queued by a child, whose generation number is greater; the
// commits still to come are those in the queue and their ancestors, whose
// generations are at most the greatest in the queue. So, when every
// commit in the queue has a generation number, a commit whose generation
// is at least that greatest one, or unknown (a commit-graph file holds
// the parents of every commit it holds), is never queued again: without
// this, the walk remembered every commit of the history.
func (w *walker) prune() {
	w.kept = len(w.seen)
	var top uint64
	for _, it := range w.queue {
		if it.gen == 0 || it.gen >= maxGeneration {
			return
		}
		top = max(top, it.gen)
	}
	for h, g := range w.seen {
		if g == 0 || g >= top {
			delete(w.seen, h)
		}
	}
	w.kept = len(w.seen)
}

func (w *walker) node(h plumbing.Hash) (*cnode, error) {
	if n, ok := w.nodes[h]; ok {
		return n, nil
	}
	sn, err := w.repo.Node(h)
	if err != nil {
		return nil, err
	}
	n := &cnode{Node: sn}
	w.nodes[h] = n
	return n, nil
}

func (w *walker) rootState(n *cnode) (state, error) {
	if n.rootSet {
		return n.root, nil
	}
	mode, hash, ok, err := w.repo.PathEntry(n.Tree, w.root)
	if err != nil {
		return state{}, err
	}
	if ok && hash != emptyTree {
		n.root = state{mode: mode, hash: hash}
	}
	n.rootSet = true
	return n.root, nil
}

func (w *walker) push(h plumbing.Hash) error {
	if _, ok := w.seen[h]; ok {
		return nil
	}
	n, err := w.node(h)
	if err != nil {
		return err
	}
	w.seen[h] = n.Generation
	n.queued = true
	w.seq++
	heap.Push(&w.queue, item{hash: h, time: n.Time, seq: w.seq, gen: n.Generation})
	return nil
}

func (w *walker) walk(start plumbing.Hash, fn func(*Entry) error) error {
	w.seen = map[plumbing.Hash]uint64{}
	if err := w.push(start); err != nil {
		return err
	}
	for w.queue.Len() > 0 {
		it := heap.Pop(&w.queue).(item)
		n, err := w.node(it.hash)
		if err != nil {
			return err
		}
		// Every later use of n is as a parent, which only commits popped
		// before it (newer ones) need; drop it to bound memory.
		delete(w.nodes, it.hash)
		if w.repo.IsShallowBoundary(it.hash) {
			what := w.root
			if what == "." {
				what = "the repository"
			}
			return &source.ShallowError{Commit: it.hash, Op: "walk the history of " + what}
		}
		mine, err := w.rootState(n)
		if err != nil {
			return err
		}
		show := false
		follow := n.Parents
		var parentTrees []plumbing.Hash
		if len(n.Parents) == 0 {
			show = mine != state{}
		} else {
			same := -1
			for i, p := range n.Parents {
				pn, err := w.node(p)
				if err != nil {
					return err
				}
				theirs, err := w.rootState(pn)
				if err != nil {
					return err
				}
				if theirs == mine {
					same = i
					break
				}
				parentTrees = append(parentTrees, theirs.hash)
			}
			if same >= 0 {
				follow = n.Parents[same : same+1]
			} else {
				show = true
			}
		}
		for _, p := range follow {
			if err := w.push(p); err != nil {
				return err
			}
		}
		for _, p := range n.Parents {
			if pn, ok := w.nodes[p]; ok && !pn.queued {
				delete(w.nodes, p)
			}
		}
		w.maxSeen = max(w.maxSeen, len(w.seen))
		if len(w.seen) >= max(2*w.kept, cmp.Or(w.pruneAt, 1024)) {
			w.prune()
		}
		if !show {
			continue
		}
		e, err := w.entry(it.hash, mine)
		if err != nil {
			return err
		}
		// Shown: no parent's root is this one's, so every parent's was
		// read above.
		e.ParentTrees = parentTrees
		if err := fn(e); err != nil {
			if err == SkipAll {
				return nil
			}
			return err
		}
	}
	return nil
}

func (w *walker) entry(h plumbing.Hash, root state) (*Entry, error) {
	c, err := w.repo.CommitObject(h)
	if err != nil {
		return nil, err
	}
	subject, _, _ := strings.Cut(c.Message, "\n")
	ts := ParseTrailers(c.Message)
	e := &Entry{
		Commit:     h,
		Tree:       root.hash,
		NotDir:     root != state{} && root.mode != filemode.Dir,
		Parents:    c.ParentHashes,
		Author:     source.Person{Name: c.Author.Name, Email: c.Author.Email, When: c.Author.When},
		Committer:  source.Person{Name: c.Committer.Name, Email: c.Committer.Email, When: c.Committer.When},
		Subject:    strings.TrimRight(subject, " \t\r"),
		ReviewedBy: values(ts, "Reviewed-by"),
		ApprovedBy: values(ts, "Approved-by"),
	}
	if c.PGPSignature != "" {
		e.Signature = Signed
	}
	for _, h := range c.ExtraHeaders {
		if h.Key == "gpgsig-sha256" {
			e.Signature = Signed
		}
	}
	return e, nil
}

// item is a commit waiting in the walk's queue. git's walk pops the commit
// with the latest committer time; among equal times, the one queued first.
type item struct {
	hash plumbing.Hash
	time int64
	seq  uint64
	gen  uint64
}

type queue []item

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	if q[i].time != q[j].time {
		return q[i].time > q[j].time
	}
	return q[i].seq < q[j].seq
}
func (q queue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)   { *q = append(*q, x.(item)) }
func (q *queue) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}
