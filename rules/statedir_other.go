//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package rules

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// stateDir is the session directory. Here, without openat(2), it checks
// each name with Lstat before it opens it: a link planted between the
// check and the open is not caught.
type stateDir struct {
	path string
}

func openStateDir(path string) (*stateDir, error) {
	path = filepath.Clean(path) // a trailing separator follows a link
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return nil, fmt.Errorf("session folder %s is a symbolic link: charter does not follow links to keep sessions; name the folder itself", path)
	case !fi.IsDir():
		return nil, fmt.Errorf("session folder %s is not a folder: something else took its place; remove it, or give another --state-dir", path)
	}
	return &stateDir{path: path}, nil
}

func (d *stateDir) close() error { return nil }

func (d *stateDir) open(name string, flag int, perm fs.FileMode) (*os.File, error) {
	p := filepath.Join(d.path, name)
	if fi, err := os.Lstat(p); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (a link or a folder took its place); remove it", p)
	}
	return os.OpenFile(p, flag, perm)
}

func (d *stateDir) same(name string, f *os.File) bool {
	a, err := os.Lstat(filepath.Join(d.path, name))
	if err != nil {
		return false
	}
	b, err := f.Stat()
	return err == nil && os.SameFile(a, b)
}

func (d *stateDir) lstat(name string) (bool, bool, error) {
	fi, err := os.Lstat(filepath.Join(d.path, name))
	if errors.Is(err, fs.ErrNotExist) {
		return false, false, nil
	}
	if err != nil {
		return false, false, err
	}
	return true, fi.Mode().IsRegular(), nil
}

func (d *stateDir) remove(name string) error { return os.Remove(filepath.Join(d.path, name)) }

func (d *stateDir) rename(from, to string) error {
	return os.Rename(filepath.Join(d.path, from), filepath.Join(d.path, to))
}

func (d *stateDir) entries() ([]fs.DirEntry, error) { return os.ReadDir(d.path) }

// staleLock is how old a lock file may get before it is taken to belong to
// a process that died.
const staleLock = 30 * time.Second

// tryLock, without flock(2), takes the lock by creating name+".held"
// exclusively beside the lock file; unlock removes it. One older than
// staleLock is taken to belong to a process that died.
func tryLock(f *os.File) error {
	held := f.Name() + ".held"
	h, err := os.OpenFile(held, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		if fi, serr := os.Lstat(held); serr == nil && time.Since(fi.ModTime()) > staleLock {
			os.Remove(held)
		}
		return errLocked
	}
	if err != nil {
		return err
	}
	return h.Close()
}

func unlock(f *os.File) { os.Remove(f.Name() + ".held") }
