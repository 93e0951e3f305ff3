//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package rules

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes an exclusive flock(2) on the file at path (created when
// missing) without waiting. The kernel drops the lock when the process
// dies, so a crashed process never leaves a session locked.
func tryLock(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, errLocked
		}
		return nil, err
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
