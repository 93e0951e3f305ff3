package source

import (
	"os"
	"path/filepath"
)

// ReportBase returns the directory that tools reading charter's reports
// resolve file paths from, and dir's path relative to it: the top of the
// Git working tree that holds dir (GitHub code scanning and workflow
// annotations resolve paths from the repository root), or, when dir is in
// no Git working tree, the current directory. rel is slash-separated; "."
// when dir is the base itself; it starts with ".." when dir lies outside
// the current directory and outside Git.
func ReportBase(dir string) (base, rel string, err error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", "", err
	}
	real, err := evalExisting(abs)
	if err != nil {
		return "", "", err
	}
	base, _, err = findDotGit(real)
	if err != nil {
		return "", "", err
	}
	if base == "" {
		if base, err = os.Getwd(); err != nil {
			return "", "", err
		}
		if b, err := evalExisting(base); err == nil {
			base = b
		}
	}
	r, err := filepath.Rel(base, real)
	if err != nil {
		return "", "", err
	}
	return base, filepath.ToSlash(r), nil
}
