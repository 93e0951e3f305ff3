package main

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/charter-dev/charter/bundle"
	"github.com/charter-dev/charter/history"
	"github.com/charter-dev/charter/revision"
	"github.com/charter-dev/charter/source"
)

// buildVersions returns each agent's version number as of rev, as
// `charter log` counts it, for a build from Git; nil for a REV:PATH
// (its history is another path's).
func buildVersions(g *globals, rev string) (map[string]int, error) {
	if _, _, hasPath, err := source.SplitRevPath(rev); err != nil || hasPath {
		return nil, nil
	}
	repo, err := source.Open(g.dir)
	if err != nil {
		return nil, &revision.Error{Err: err}
	}
	defer repo.Close()
	var ev revision.Evaluator
	n, err := history.Numbers(repo, rev, func(fsys fs.FS) (map[string]string, error) {
		r, err := ev.EvaluateFS(fsys, rev)
		if err != nil {
			return nil, err
		}
		if !r.OK() {
			return nil, errors.New("does not validate")
		}
		return bundle.ContentHashes(r.Program)
	})
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
