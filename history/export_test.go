package history

import (
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/charter-dev/charter/source"
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
