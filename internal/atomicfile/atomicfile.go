// Package atomicfile writes a file whole or not at all: through a temporary
// sibling and a rename, so that a reader (or a crash) never sees half of it.
package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
)

// Write writes b to name with permissions perm, through a temporary file
// beside name (".NAME.tmp-*") renamed over it. On failure name is
// untouched and the temporary file removed.
func Write(name string, b []byte, perm fs.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp-")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(perm); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), name)
}

// PermOf returns the permissions of name when it exists, else def: a
// rewrite keeps them (fmt must not widen a 0600 file).
func PermOf(name string, def fs.FileMode) fs.FileMode {
	if fi, err := os.Stat(name); err == nil {
		return fi.Mode().Perm()
	}
	return def
}
