package history

import (
	"errors"
	"io/fs"

	"github.com/charter-dev/charter/bundle"
	"github.com/charter-dev/charter/revision"
	"github.com/charter-dev/charter/source"
)

// VersionsAt returns each agent's version number as of rev (see Numbers)
// in the repository that holds the config root dir, each commit's tree
// evaluated as a revision; nil for a REV:PATH, whose history is another
// path's. A repository that cannot be opened gives a *revision.Error; a
// shallow clone, whose history cannot give the numbers, a
// *source.ShallowError.
func VersionsAt(dir, rev string) (map[string]int, error) {
	if _, _, hasPath, err := source.SplitRevPath(rev); err != nil || hasPath {
		return nil, nil
	}
	repo, err := source.Open(dir)
	if err != nil {
		return nil, &revision.Error{Err: err}
	}
	defer repo.Close()
	var ev revision.Evaluator
	return Numbers(repo, rev, func(fsys fs.FS) (map[string]string, error) {
		r, err := ev.EvaluateFS(fsys, rev)
		if err != nil {
			return nil, err
		}
		if !r.OK() {
			return nil, errors.New("does not validate")
		}
		return bundle.ContentHashes(r.Program)
	})
}
