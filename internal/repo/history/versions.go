package history

import (
	"slices"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/charter-dev/charter/internal/repo/diff"
)

// Version is one version of an agent: a commit at which its content hash
// differs from the version before (docs/design.md §9).
type Version struct {
	// Number is 1 for the first commit where the agent exists, +1 each time
	// its content hash changes.
	Number int    `json:"version"`
	Entry  *Entry `json:"commit"`
	// ContentHash is empty for the entry that records the agent's removal.
	ContentHash string `json:"content_hash,omitempty"`
	Removed     bool   `json:"removed,omitempty"`
	// Summary is a one-line account of what changed.
	Summary string `json:"summary"`
	// Changes are the field-level changes from the version before.
	Changes []diff.Change `json:"changes,omitempty"`
	// Doc is the agent as of this version (nil when removed).
	Doc map[string]any `json:"-"`
}

// Snapshot is what an evaluator says of one commit: the agent's document
// (nil when the agent does not exist there), or Err when the configuration
// did not validate at that commit.
type Snapshot struct {
	Doc map[string]any
	Err error
}

// A version follows parent edges (docs/design.md §9): a commit the walk
// lists is a version of the agent when the agent's state there (its
// content hash, or its absence) differs from its state at every parent,
// and what changed is told against the first parent. A parent's state is
// the snapshot of its config tree; a parent whose configuration does not
// validate stands for its own parents (those of the first commit the walk
// lists after the child with that tree). So a commit that changes only
// other files is no version, nor is a merge that takes one side's agent,
// and a merge that combines both sides' changes is one, against its first
// parent.

// Versions turns a walk's entries (newest first, as Walk gives them) into
// the agent's versions, oldest first. eval is called once per distinct
// config tree. Commits whose configuration did not validate are skipped and
// returned in invalid, oldest first. It keeps every entry: it is the form
// the tests compare versionStream, which keeps nothing per commit, with.
func Versions(entries []*Entry, agent string, eval func(*Entry) Snapshot) (versions []Version, invalid []*Entry) {
	snaps := map[plumbing.Hash]Snapshot{}
	for _, e := range entries {
		if _, ok := snaps[e.Tree]; !ok {
			snaps[e.Tree] = eval(e)
		}
	}
	// states returns the states a tree stands for, seen from entry i:
	// its own, or, when it does not validate, its parents' (those of the
	// first entry after i with that tree).
	var states func(i int, tree plumbing.Hash) []*vstate
	states = func(i int, tree plumbing.Hash) []*vstate {
		if tree.IsZero() {
			return []*vstate{{}}
		}
		for j := i + 1; j < len(entries); j++ {
			if entries[j].Tree != tree {
				continue
			}
			if snap := snaps[tree]; snap.Err == nil {
				return []*vstate{stateOf(snap)}
			}
			var out []*vstate
			for _, pt := range entries[j].ParentTrees {
				out = append(out, states(j, pt)...)
			}
			return out
		}
		return []*vstate{{}}
	}
	var decided []seqVersion
	for i, e := range entries {
		snap := snaps[e.Tree]
		if snap.Err != nil {
			invalid = append(invalid, e)
			continue
		}
		var parents []*vstate
		for _, pt := range e.ParentTrees {
			parents = append(parents, states(i, pt)...)
		}
		if v, ok := decide(agent, e, stateOf(snap), parents, true, true, true); ok {
			decided = append(decided, seqVersion{seq: i, v: v})
		}
	}
	slices.Reverse(invalid)
	return number(decided), invalid
}

// vstate is an agent's state at a config tree: absent (doc nil) or a
// document with its content hash.
type vstate struct {
	doc  map[string]any
	hash string
}

func stateOf(s Snapshot) *vstate {
	if s.Doc == nil {
		return &vstate{}
	}
	hash, _ := s.Doc["content_hash"].(string)
	return &vstate{doc: s.Doc, hash: hash}
}

func (a *vstate) same(b *vstate) bool { return (a.doc == nil) == (b.doc == nil) && a.hash == b.hash }

// seqVersion is a version and the place of its commit in the walk.
type seqVersion struct {
	seq int
	v   Version
}

// decide returns the version e is, with state st and its parents' states,
// or false when its state is one of theirs. summary says whether to tell
// what changed (and changes whether to keep the changes), docs whether to
// keep the document.
func decide(agent string, e *Entry, st *vstate, parents []*vstate, summary, changes, docs bool) (Version, bool) {
	if len(parents) == 0 {
		// A commit that does not validate, and has no parents, stands
		// for nothing.
		parents = []*vstate{{}}
	}
	for _, p := range parents {
		if st.same(p) {
			return Version{}, false
		}
	}
	from := parents[0]
	var v Version
	switch {
	case st.doc == nil:
		v = Version{Entry: e, Removed: true, Summary: "removed"}
	case from.doc == nil:
		v = Version{Entry: e, ContentHash: st.hash, Summary: "created"}
	default:
		v = Version{Entry: e, ContentHash: st.hash}
		if summary {
			cs := diff.Agents(map[string]map[string]any{agent: from.doc}, map[string]map[string]any{agent: st.doc})
			v.Summary = diff.Summarize(agent, cs)
			if changes {
				v.Changes = cs
			}
		}
	}
	if docs {
		v.Doc = st.doc
	}
	return v, true
}

// number puts versions in the walk's order reversed (oldest first),
// numbers them, and calls a creation after an earlier version a
// re-creation.
func number(vs []seqVersion) []Version {
	slices.SortFunc(vs, func(a, b seqVersion) int { return b.seq - a.seq })
	out := make([]Version, len(vs))
	for i, sv := range vs {
		out[i] = sv.v
		out[i].Number = i + 1
		if i > 0 && out[i].Summary == "created" {
			out[i].Summary = "re-created"
		}
	}
	return out
}

// versionStream makes an agent's versions, as Versions does, from the
// walk's entries in the walk's order, newest first, keeping nothing per
// entry: a commit waits for the states of its parents' config trees, which
// the walk meets later (older), and becomes a version, or not, once it has
// them all. In a history without merges that is the next entry.
type versionStream struct {
	agent string
	// keep keeps every version's summary; without it only the count and
	// whether the newest one removes the agent are kept.
	keep bool
	// docs keeps each version's document, changes its changes.
	docs, changes bool

	seq int
	// waiting holds, by config tree, the parents that wait for its state.
	waiting map[plumbing.Hash][]*parentSlot
	decided []seqVersion
	// Without keep: the number of versions, and the newest's.
	n      int
	newest seqVersion

	invalid       int
	oldestInvalid *Entry
}

// pendingCommit is a commit that waits for its parents' states.
type pendingCommit struct {
	entry   *Entry
	seq     int
	state   *vstate
	parents []*parentSlot
	open    int // slots without a state
}

// parentSlot is one parent of a pending commit: its state, once known.
type parentSlot struct {
	c     *pendingCommit
	state *vstate
	// more are the slots that stand in for this one when its tree does
	// not validate (its parents').
	more []*parentSlot
}

// add takes the next entry of the walk, older than those before, and the
// agent's snapshot there.
func (s *versionStream) add(e *Entry, snap Snapshot) {
	if s.waiting == nil {
		s.waiting = map[plumbing.Hash][]*parentSlot{}
	}
	seq := s.seq
	s.seq++
	// First the commits that wait for this tree's state.
	waiters := s.waiting[e.Tree]
	delete(s.waiting, e.Tree)
	for _, slot := range waiters {
		if snap.Err != nil {
			// It stands for its parents.
			slot.c.open--
			for _, pt := range e.ParentTrees {
				more := &parentSlot{c: slot.c}
				slot.more = append(slot.more, more)
				s.wait(more, pt)
			}
			if slot.c.open == 0 {
				s.decide(slot.c)
			}
			continue
		}
		s.resolve(slot, stateOf(snap))
	}
	if snap.Err != nil {
		s.invalid++
		s.oldestInvalid = e
		return
	}
	c := &pendingCommit{entry: e, seq: seq, state: stateOf(snap)}
	if len(e.ParentTrees) == 0 {
		c.parents = []*parentSlot{{c: c, state: &vstate{}}}
		s.decide(c)
		return
	}
	for _, pt := range e.ParentTrees {
		slot := &parentSlot{c: c}
		c.parents = append(c.parents, slot)
		s.wait(slot, pt)
	}
	if c.open == 0 {
		s.decide(c)
	}
}

// wait makes slot wait for the state of tree; the state of no tree (a
// parent without the config root) is known at once: no agent.
func (s *versionStream) wait(slot *parentSlot, tree plumbing.Hash) {
	if tree.IsZero() {
		slot.state = &vstate{}
		return
	}
	slot.c.open++
	s.waiting[tree] = append(s.waiting[tree], slot)
}

func (s *versionStream) resolve(slot *parentSlot, st *vstate) {
	slot.state = st
	slot.c.open--
	if slot.c.open == 0 {
		s.decide(slot.c)
	}
}

// decide makes c a version or not, once every parent has a state.
func (s *versionStream) decide(c *pendingCommit) {
	var parents []*vstate
	var flatten func(slots []*parentSlot)
	flatten = func(slots []*parentSlot) {
		for _, sl := range slots {
			if sl.state != nil {
				parents = append(parents, sl.state)
			}
			flatten(sl.more)
		}
	}
	flatten(c.parents)
	v, ok := decide(s.agent, c.entry, c.state, parents, s.keep, s.changes, s.docs)
	if !ok {
		return
	}
	if !s.keep {
		s.n++
		if s.n == 1 || c.seq < s.newest.seq {
			s.newest = seqVersion{seq: c.seq, v: v}
		}
		return
	}
	s.decided = append(s.decided, seqVersion{seq: c.seq, v: v})
}

// done ends the walk: a tree the walk never met again has no agent. It
// returns the versions, oldest first, numbered.
func (s *versionStream) done() []Version {
	for tree, slots := range s.waiting {
		delete(s.waiting, tree)
		for _, slot := range slots {
			s.resolve(slot, &vstate{})
		}
	}
	if !s.keep {
		return nil
	}
	return number(s.decided)
}
