package history

import (
	"io/fs"

	"github.com/charter-dev/charter/source"
)

// Numbers returns the version number of every agent as of rev: the number
// `charter log AGENT` gives the agent's latest version from rev (1 at the
// first commit where it exists, +1 each time its content hash changes,
// and at each removal and re-creation). hashes evaluates one config tree
// into each agent's content hash; an error means the tree did not
// validate, and the commit is skipped, as log skips it. Each distinct tree
// is evaluated once. Agents that do not exist at rev are not in the
// result.
func Numbers(repo *source.Repo, rev string, hashes func(fs.FS) (map[string]string, error)) (map[string]int, error) {
	var entries []*Entry
	if err := Walk(repo, rev, repo.ConfigPath(), func(e *Entry) error {
		entries = append(entries, e)
		return nil
	}); err != nil {
		return nil, err
	}
	type state struct {
		hash  string // "" when the agent does not exist
		count int
	}
	agents := map[string]*state{}
	cache := map[string]map[string]string{}
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		key := e.Tree.String()
		hs, ok := cache[key]
		if !ok {
			hs = map[string]string{}
			if !e.Tree.IsZero() && !e.NotDir {
				var err error
				if hs, err = hashes(repo.CommitTree(e.Commit, e.Tree, e.Committer.When)); err != nil {
					hs = nil
				}
			}
			cache[key] = hs
		}
		if hs == nil {
			continue // did not validate: skipped
		}
		for id, h := range hs {
			s := agents[id]
			if s == nil {
				s = &state{}
				agents[id] = s
			}
			if h != s.hash {
				s.hash = h
				s.count++
			}
		}
		for id, s := range agents {
			if _, ok := hs[id]; !ok && s.hash != "" {
				s.hash = "" // removed: a version of its own
				s.count++
			}
		}
	}
	out := map[string]int{}
	for id, s := range agents {
		if s.hash != "" {
			out[id] = s.count
		}
	}
	return out, nil
}
