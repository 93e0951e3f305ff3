package history

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charter-dev/charter/internal/config/fieldpath"
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

// Versions turns a walk's entries (newest first, as Walk gives them) into
// the agent's versions, oldest first. eval is called once per distinct
// config tree. Commits whose configuration did not validate are skipped and
// returned in invalid.
func Versions(entries []*Entry, agent string, eval func(*Entry) Snapshot) (versions []Version, invalid []*Entry) {
	cache := map[string]Snapshot{}
	var prev map[string]any
	prevHash := ""
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		key := e.Tree.String()
		snap, ok := cache[key]
		if !ok {
			snap = eval(e)
			cache[key] = snap
		}
		if snap.Err != nil {
			invalid = append(invalid, e)
			continue
		}
		switch {
		case snap.Doc == nil && prev == nil:
			continue
		case snap.Doc == nil:
			versions = append(versions, Version{Number: len(versions) + 1, Entry: e, Removed: true, Summary: "removed"})
			prev, prevHash = nil, ""
			continue
		}
		hash, _ := snap.Doc["content_hash"].(string)
		if hash == prevHash {
			continue
		}
		v := Version{Number: len(versions) + 1, Entry: e, ContentHash: hash, Doc: snap.Doc}
		if prev == nil {
			v.Summary = "created"
			if len(versions) > 0 {
				v.Summary = "re-created"
			}
		} else {
			v.Changes = diff.Agents(map[string]map[string]any{agent: prev}, map[string]map[string]any{agent: snap.Doc})
			v.Summary = Summarize(agent, v.Changes)
		}
		versions = append(versions, v)
		prev, prevHash = snap.Doc, hash
	}
	return versions, invalid
}

// Summarize says in one line what changes do: the first change (widened
// ones first), and how many more.
func Summarize(agent string, cs []diff.Change) string {
	if len(cs) == 0 {
		return "no field changed"
	}
	c := cs[0]
	path := strings.TrimPrefix(c.Path, fieldpath.Path{"agents", agent}.String()+".")
	var s string
	switch c.Change {
	case diff.Added:
		s = path + " added"
	case diff.Removed:
		s = path + " removed"
	default:
		s = path + " " + diff.Brief(c.Old) + " -> " + diff.Brief(c.New)
		if strings.HasSuffix(c.Path, ".prompt") {
			s = "prompt changed"
		}
	}
	if c.Effect != diff.Neutral {
		s = c.Effect + ": " + s
	}
	if n := len(cs) - 1; n > 0 {
		s += fmt.Sprintf(" (+%d more)", n)
	}
	return s
}

// versionStream makes an agent's versions, as Versions does, from the
// walk's entries in the walk's order, newest first, keeping nothing per
// entry. A version is the oldest commit of a run of commits (those that
// do not validate left out) where the agent's state, its content hash or
// its absence, is the same; what changed is from the state of the run
// before it, which is older. So a run becomes a version when the walk
// meets the state before it, and the versions are numbered when the walk
// ends.
type versionStream struct {
	agent string
	// keep keeps every version; without it only the newest is kept (and
	// its Summary may be wrong), with the count.
	keep bool
	// docs keeps each version's document, changes its changes.
	docs, changes bool

	// cur is the run the walk is in; nil before the first entry.
	cur *run
	// versions are the versions made so far, newest first; newest is the
	// first one made, and n their number.
	versions []Version
	newest   Version
	n        int
	// created is set when the version made last is a creation.
	created bool

	invalid       int
	oldestInvalid *Entry
}

// run is a run of commits where the agent's state is the same: doc is nil
// where the agent does not exist.
type run struct {
	oldest *Entry
	doc    map[string]any
	hash   string
}

// add takes the next entry of the walk, older than those before, and the
// agent's snapshot there. An agent's document always has a content hash.
func (s *versionStream) add(e *Entry, snap Snapshot) {
	if snap.Err != nil {
		s.invalid++
		s.oldestInvalid = e
		return
	}
	hash, _ := snap.Doc["content_hash"].(string)
	if s.cur != nil && (snap.Doc == nil) == (s.cur.doc == nil) && hash == s.cur.hash {
		s.cur.oldest = e
		return
	}
	if s.cur != nil {
		s.close(snap.Doc)
	}
	s.cur = &run{oldest: e, doc: snap.Doc, hash: hash}
}

// close makes the current run a version, given the document of the run
// before it (nil for an absence, or where there is none).
func (s *versionStream) close(before map[string]any) {
	r := s.cur
	var v Version
	switch {
	case r.doc == nil && before == nil:
		return
	case r.doc == nil:
		v = Version{Entry: r.oldest, Removed: true, Summary: "removed"}
		if s.created {
			// The agent existed before: the version after this is a
			// re-creation.
			if s.keep {
				s.versions[len(s.versions)-1].Summary = "re-created"
			}
			if s.n == 1 {
				s.newest.Summary = "re-created"
			}
		}
	case before == nil:
		v = Version{Entry: r.oldest, ContentHash: r.hash, Summary: "created"}
	default:
		v = Version{Entry: r.oldest, ContentHash: r.hash}
		if s.keep {
			cs := diff.Agents(map[string]map[string]any{s.agent: before}, map[string]map[string]any{s.agent: r.doc})
			v.Summary = Summarize(s.agent, cs)
			if s.changes {
				v.Changes = cs
			}
		}
	}
	if s.docs {
		v.Doc = r.doc
	}
	s.created = r.doc != nil && before == nil
	s.n++
	if s.n == 1 {
		s.newest = v
	}
	if s.keep {
		s.versions = append(s.versions, v)
	}
}

// done ends the walk: the oldest run has nothing before it. It numbers
// the versions and puts them oldest first.
func (s *versionStream) done() {
	if s.cur != nil {
		s.close(nil)
		s.cur = nil
	}
	slices.Reverse(s.versions)
	for i := range s.versions {
		s.versions[i].Number = i + 1
	}
	s.newest.Number = s.n
}
