//go:build unix

package bundle

import (
	"errors"
	"os"
	"syscall"
)

// lockDir waits for, and takes, an exclusive lock on the folder dir, held
// until unlock. It is a lock, not a file, so it ends with the process
// however the process ends; where the folder cannot be locked, it returns
// at once and locks nothing.
func lockDir(dir string) (unlock func()) {
	f, err := os.Open(dir)
	if err != nil {
		return func() {}
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return func() {}
	}
	return func() { f.Close() } // closing releases the lock
}
