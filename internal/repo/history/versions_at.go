package history

import (
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/repo/source"
)

// VersionsAt returns the version number as of rev of each of the agents
// ids, the number `charter log` gives (VersionNumbers, the code log runs),
// in the repository that holds the config root dir; nil for a REV:PATH,
// whose history is another path's. A repository that cannot be opened
// gives a *revision.Error; a shallow clone, whose history cannot give the
// numbers, a *source.ShallowError.
func VersionsAt(dir, rev string, ids []string) (map[string]int, error) {
	if _, _, hasPath, err := source.SplitRevPath(rev); err != nil || hasPath {
		return nil, nil
	}
	repo, err := source.Open(dir)
	if err != nil {
		return nil, &revision.Error{Err: err}
	}
	defer repo.Close()
	return VersionNumbers(repo, rev, ids)
}
