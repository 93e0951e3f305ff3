package source

import (
	"os"
	"path/filepath"
)

// FindRoot returns the config root that holds the directory start, as cue
// finds a module's root: start or its nearest parent that holds a cue.mod
// folder, never past the top of the Git repository start is in. It
// returns start when there is none, so that a repository without cue.mod
// is read where charter runs. The result is start itself or a relative
// path from it ("..", "../..") when start is relative.
func FindRoot(start string) string {
	abs, err := filepath.Abs(start)
	if err != nil {
		return start
	}
	rel := start
	for dir := abs; ; {
		if fi, err := os.Stat(filepath.Join(dir, "cue.mod")); err == nil && fi.IsDir() {
			return rel
		}
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return start // the top of a Git repository: no further
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return start
		}
		dir = parent
		rel = filepath.Join(rel, "..")
	}
}
