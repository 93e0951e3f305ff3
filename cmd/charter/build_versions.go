package main

import (
	"errors"
	"fmt"

	"github.com/charter-dev/charter/history"
	"github.com/charter-dev/charter/revision"
	"github.com/charter-dev/charter/source"
)

// buildVersions returns each agent's version number as of rev, as
// `charter log` counts it, for a build from Git; nil for a REV:PATH
// (its history is another path's).
func buildVersions(g *globals, rev string) (map[string]int, error) {
	n, err := history.VersionsAt(g.dir, rev)
	var shallow *source.ShallowError
	var re *revision.Error
	switch {
	case errors.As(err, &shallow):
		// The bundle itself needs only the one commit: build it, without
		// the numbers a shallow history cannot give.
		fmt.Fprintf(g.stderr, "charter: agent.json records no version: %v; fetch the whole history (git fetch --unshallow, or fetch-depth: 0 in CI) to have them\n", err)
		return nil, nil
	case errors.As(err, &re):
		return nil, err
	case err != nil:
		return nil, fail(err, "")
	}
	return n, nil
}
