package main

import (
	"errors"
	"maps"
	"slices"

	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/repo/history"
	"github.com/charter-dev/charter/internal/repo/source"
)

// buildVersions returns the version number as of rev of each of agents,
// the number `charter log` gives, for a build from Git; nil for a
// REV:PATH (its history is another path's).
func buildVersions[V any](g *globals, rev string, agents map[string]V) (map[string]int, error) {
	n, err := history.VersionsAt(g.dir, rev, slices.Sorted(maps.Keys(agents)))
	var shallow *source.ShallowError
	var re *revision.Error
	switch {
	case errors.As(err, &shallow):
		// The bundle itself needs only the one commit: build it, without
		// the numbers a shallow history cannot give.
		textf(g.stderr, "charter: agent.json records no version: %v\n", err)
		return nil, nil
	case errors.As(err, &re):
		return nil, err
	case err != nil:
		return nil, err
	}
	return n, nil
}
