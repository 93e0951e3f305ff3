//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package rules

import (
	"errors"
	"io/fs"
	"os"
	"time"
)

// staleLock is how old a lock file may get before it is taken to belong to
// a process that died.
const staleLock = 30 * time.Second

// tryLock takes the lock by creating the file at path exclusively, without
// waiting; the release removes it. A lock file older than staleLock is
// removed first, since its process must have died.
func tryLock(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		if fi, serr := os.Stat(path); serr == nil && time.Since(fi.ModTime()) > staleLock {
			os.Remove(path)
		}
		return nil, errLocked
	}
	if err != nil {
		return nil, err
	}
	f.Close()
	return func() { os.Remove(path) }, nil
}
