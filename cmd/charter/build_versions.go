package main

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/charter-dev/charter/history"
	"github.com/charter-dev/charter/revision"
	"github.com/charter-dev/charter/source"
)

// buildVersions returns the version number as of rev of each of agents,
// the number `charter log` gives (history.VersionNumbers, the code log
// runs), for a build from Git; nil for a REV:PATH (its history is another
// path's).
func buildVersions[V any](g *globals, rev string, agents map[string]V) (map[string]int, error) {
	if _, _, hasPath, err := source.SplitRevPath(rev); err != nil || hasPath {
		return nil, nil
	}
	repo, err := source.Open(g.dir)
	if err != nil {
		return nil, &revision.Error{Err: err}
	}
	defer repo.Close()
	n, err := history.VersionNumbers(repo, rev, slices.Sorted(maps.Keys(agents)))
	var shallow *source.ShallowError
	if errors.As(err, &shallow) {
		// The bundle itself needs only the one commit: build it, without
		// the numbers a shallow history cannot give.
		fmt.Fprintf(g.stderr, "charter: agent.json records no version: %v; fetch the whole history (git fetch --unshallow, or fetch-depth: 0 in CI) to have them\n", err)
		return nil, nil
	}
	if err != nil {
		return nil, fail(err, "")
	}
	return n, nil
}
