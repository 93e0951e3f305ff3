// Package starter holds the repository that `charter init` writes.
package starter

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

//go:embed all:files
var files embed.FS

// Write writes the starter repository into dir, creating it if needed. It
// refuses to overwrite any existing file and then writes nothing.
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
	for _, p := range paths {
		target := filepath.Join(dir, filepath.FromSlash(p))
		if _, err := os.Lstat(target); err == nil {
			return nil, fmt.Errorf("%s already exists; init writes only into an empty directory (or one without these files)", target)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	var written []string
	for _, p := range paths {
		target := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return written, err
		}
		b, err := fs.ReadFile(root, p)
		if err != nil {
			return written, err
		}
		if err := os.WriteFile(target, b, 0o644); err != nil {
			return written, err
		}
		written = append(written, target)
	}
	return written, nil
}
