package claudecode

import (
	"os"
	"path/filepath"

	"github.com/charter-dev/charter/rules"
)

// DefaultStateDir returns where the hook keeps sessions when no folder is
// given: charter/sessions under the user's cache directory. The folder is
// marked as charter's own (rules.MarkOwn), whichever version made it, so
// that SessionEnd may prune idle sessions in it.
func DefaultStateDir() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(cache, "charter", "sessions")
	if _, err := os.Stat(filepath.Join(dir, rules.OwnMarker)); err != nil {
		_ = rules.MarkOwn(dir)
	}
	return dir, nil
}
