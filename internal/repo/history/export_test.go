package history

import (
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/charter-dev/charter/internal/repo/source"
)

// WalkPruned is Walk pruning its set of the commits it has queued at
// every step, not when it has grown to a thousand; it returns the most
// commits the set held.
func WalkPruned(repo *source.Repo, rev, root string, fn func(*Entry) error) (int, error) {
	root, err := cleanRoot(root)
	if err != nil {
		return 0, err
	}
	start, err := repo.Resolve(rev)
	if err != nil {
		return 0, err
	}
	w := &walker{repo: repo, root: root, nodes: map[plumbing.Hash]*cnode{}, pruneAt: 1}
	err = w.walk(start, fn)
	return w.maxSeen, err
}

// SmallCaches makes the caches of the scopes made from now on hold one or
// two entries, until restore is called: tests run the walk with every
// cache dropping what it held, to check nothing depends on it.
func SmallCaches() (restore func()) {
	files, evals, snaps := minFiles, keptEvaluations, keptSnapshots
	minFiles, keptEvaluations, keptSnapshots = 1, 1, 1
	return func() { minFiles, keptEvaluations, keptSnapshots = files, evals, snaps }
}

// The whole-walk form of AgentVersions, which keeps every entry and a
// snapshot per config tree: the oracle tests compare with it.

// AgentWalk is what AgentSnapshots found.
type AgentWalk struct {
	// Entries are the walk's, newest first.
	Entries []*Entry
	// Snapshots holds the agent's snapshot by config tree.
	Snapshots map[plumbing.Hash]Snapshot
	// Seen reports whether the agent exists in a configuration that
	// validates.
	Seen bool
}

// AgentSnapshots walks history from rev and evaluates, for agent id, the
// config tree of each commit it finds (newest first, as the walk gives
// them), through the agent's scope (see agentScope): only the files that
// can affect the agent are evaluated, so a commit where a file of an agent
// nobody mentions does not validate is still one of this agent's. The
// walk, with the listing of each tree, runs on its own goroutine while
// this one evaluates: the one reads Git objects, the other evaluates CUE.
//
// AgentSnapshots keeps every entry and a snapshot per config tree: memory
// grows with the history. AgentVersions, which log uses, keeps nothing
// per commit.
func AgentSnapshots(repo *source.Repo, rev, id string, opts AgentOptions) (*AgentWalk, error) {
	walk := &AgentWalk{Snapshots: map[plumbing.Hash]Snapshot{}}
	seen, err := walkAgents(repo, rev, []string{id}, opts, func(e *Entry, snaps []Snapshot) {
		walk.Entries = append(walk.Entries, e)
		if _, ok := walk.Snapshots[e.Tree]; !ok {
			walk.Snapshots[e.Tree] = snaps[0]
		}
	})
	if err != nil {
		return nil, err
	}
	walk.Seen = seen[0]
	return walk, nil
}

// Versions returns the agent's versions along the walk, oldest first, and
// the commits where its configuration did not validate (see Versions).
func (w *AgentWalk) Versions(id string) (versions []Version, invalid []*Entry) {
	return Versions(w.Entries, id, func(e *Entry) Snapshot { return w.Snapshots[e.Tree] })
}
