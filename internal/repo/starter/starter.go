// Package starter holds the repository that `charter init` writes.
package starter

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

//go:embed all:files
var files embed.FS

// ignoreLine is what the starter's .gitignore ignores: the bundle charter
// build writes by default.
const ignoreLine = "/dist/"

// Write writes the starter repository into dir, creating it if needed, and
// returns what it did, a line each ("wrote DIR/agents/ann.cue"). It
// refuses to overwrite any existing file and then writes nothing; an
// existing .gitignore is kept, with the line that ignores the bundle
// added when it lacks it.
func Write(dir string) ([]string, error) {
	root, err := fs.Sub(files, "files")
	if err != nil {
		return nil, err
	}
	var paths []string
	err = fs.WalkDir(root, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		paths = append(paths, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	ignore := filepath.Join(dir, ".gitignore")
	_, err = os.Lstat(ignore)
	hasIgnore := err == nil
	for _, p := range paths {
		target := filepath.Join(dir, filepath.FromSlash(p))
		if target == ignore {
			continue
		}
		if _, err := os.Lstat(target); err == nil {
			return nil, fmt.Errorf("%s already exists; init writes only into an empty directory (or one without these files)", target)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	var done []string
	for _, p := range paths {
		target := filepath.Join(dir, filepath.FromSlash(p))
		if target == ignore && hasIgnore {
			added, err := addIgnore(ignore)
			if err != nil {
				return done, err
			}
			if added {
				done = append(done, "added "+ignoreLine+" to "+target)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return done, err
		}
		b, err := fs.ReadFile(root, p)
		if err != nil {
			return done, err
		}
		if err := os.WriteFile(target, b, 0o644); err != nil {
			return done, err
		}
		done = append(done, "wrote "+target)
	}
	return done, nil
}

// addIgnore adds ignoreLine to the .gitignore at name unless a line of it
// is that already.
func addIgnore(name string) (bool, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return false, err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(l) == ignoreLine {
			return false, nil
		}
	}
	f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return false, err
	}
	sep := ""
	if len(b) > 0 && b[len(b)-1] != '\n' {
		sep = "\n"
	}
	_, err = fmt.Fprintf(f, "%s# The bundle charter build writes.\n%s\n", sep, ignoreLine)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err == nil, err
}
