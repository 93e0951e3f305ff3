package revision

import (
	"strings"

	"github.com/charter-dev/charter/internal/repo/source"
)

// Tag returns the tag that rev names in the repository holding dir: the
// tag's name (v1.3.0) when rev is a tag, given as NAME or refs/tags/NAME
// (with or without :PATH), and "" for anything else (a branch, a commit,
// HEAD) or when the repository cannot be read.
func Tag(dir, rev string) string {
	r, _, _, err := source.SplitRevPath(rev)
	if err != nil || r == "" {
		return ""
	}
	name := strings.TrimPrefix(r, "refs/tags/")
	if strings.ContainsAny(name, "~^") {
		return ""
	}
	repo, err := source.Open(dir)
	if err != nil {
		return ""
	}
	defer repo.Close()
	tagged, err := repo.Resolve("refs/tags/" + name)
	if err != nil {
		return ""
	}
	if got, err := repo.Resolve(r); err != nil || got != tagged {
		return ""
	}
	return name
}
