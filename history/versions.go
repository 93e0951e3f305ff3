package history

import (
	"fmt"
	"strings"

	"github.com/charter-dev/charter/diff"
	"github.com/charter-dev/charter/fieldpath"
)

// Version is one version of an agent: a commit at which its content hash
// differs from the version before (DESIGN.md section 6).
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
