//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package rules

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// stateDir is the session directory, held open: every file is opened,
// created, renamed and removed relative to it, never through a symbolic
// link, so that a folder moved or swapped under a running update changes
// nothing it does, and a link planted in the folder is refused.
type stateDir struct {
	path string
	f    *os.File
	fd   int
}

// openStateDir opens the session directory at path, which must be a
// directory and not a symbolic link.
func openStateDir(path string) (*stateDir, error) {
	// O_NOFOLLOW does not hold for a name that ends in a slash.
	path = filepath.Clean(path)
	var fd int
	err := retryEINTR(func() (err error) {
		fd, err = unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		return err
	})
	if err != nil {
		return nil, dirError(path, err)
	}
	return &stateDir{path: path, f: os.NewFile(uintptr(fd), path), fd: fd}, nil
}

func (d *stateDir) close() error { return d.f.Close() }

// open opens name in the directory without following a link; the file
// must be a regular file.
func (d *stateDir) open(name string, flag int, perm fs.FileMode) (*os.File, error) {
	var fd int
	err := retryEINTR(func() (err error) {
		fd, err = unix.Openat(d.fd, name, flag|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, uint32(perm))
		return err
	})
	if err != nil {
		switch {
		case errors.Is(err, unix.ELOOP):
			return nil, fmt.Errorf("%s/%s is a symbolic link: charter does not follow links in its session folder; remove it", d.path, name)
		case errors.Is(err, unix.EISDIR):
			return nil, fmt.Errorf("%s/%s is not a regular file but a folder: something else took its place; remove it", d.path, name)
		}
		return nil, &fs.PathError{Op: "open", Path: d.path + "/" + name, Err: err}
	}
	// O_NONBLOCK only kept open() of a planted FIFO from hanging: check
	// what the file is, then clear it before Go's poller sees the file.
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		unix.Close(fd)
		return nil, fmt.Errorf("%s/%s is not a regular file: something else took its place; remove it", d.path, name)
	}
	if err := unix.SetNonblock(fd, false); err != nil {
		unix.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), d.path+"/"+name), nil
}

// same reports whether name in the directory is the file f (a lock file
// still in place, not removed and made again).
func (d *stateDir) same(name string, f *os.File) bool {
	var st unix.Stat_t
	if unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
		return false
	}
	var fst unix.Stat_t
	if unix.Fstat(int(f.Fd()), &fst) != nil {
		return false
	}
	return fst.Dev == st.Dev && fst.Ino == st.Ino
}

// lstat returns what name is, without following a link.
func (d *stateDir) lstat(name string) (exists bool, regular bool, err error) {
	var st unix.Stat_t
	err = unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
	if errors.Is(err, unix.ENOENT) {
		return false, false, nil
	}
	if err != nil {
		return false, false, err
	}
	return true, st.Mode&unix.S_IFMT == unix.S_IFREG, nil
}

func (d *stateDir) remove(name string) error {
	err := unix.Unlinkat(d.fd, name, 0)
	if errors.Is(err, unix.ENOENT) {
		return fs.ErrNotExist
	}
	return err
}

func (d *stateDir) rename(from, to string) error {
	return unix.Renameat(d.fd, from, d.fd, to)
}

func (d *stateDir) entries() ([]fs.DirEntry, error) {
	// A second descriptor: reading moves the first's offset.
	var fd int
	err := retryEINTR(func() (err error) {
		fd, err = unix.Openat(d.fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		return err
	})
	if err != nil {
		return nil, err
	}
	dir := os.NewFile(uintptr(fd), d.path)
	defer dir.Close()
	return dir.ReadDir(-1)
}

// tryLock takes an exclusive flock(2) on the file f without waiting. The
// kernel drops the lock when the process dies, so a crashed process never
// leaves a session locked.
func tryLock(f *os.File) error {
	err := retryEINTR(func() error { return unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) })
	if errors.Is(err, unix.EWOULDBLOCK) {
		return errLocked
	}
	return err
}

func unlock(f *os.File) {
	unix.Flock(int(f.Fd()), unix.LOCK_UN)
}

func retryEINTR(f func() error) error {
	for {
		if err := f(); !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}

// dirError says why path cannot be the session directory.
func dirError(path string, err error) error {
	switch {
	case errors.Is(err, unix.ENOENT):
		return &fs.PathError{Op: "open", Path: path, Err: fs.ErrNotExist}
	case errors.Is(err, unix.ELOOP), errors.Is(err, unix.ENOTDIR) && isLink(path):
		return fmt.Errorf("session folder %s is a symbolic link: charter does not follow links to keep sessions; name the folder itself", path)
	case errors.Is(err, unix.ENOTDIR):
		return fmt.Errorf("session folder %s is not a folder: something else took its place; remove it, or give another --state-dir", path)
	}
	return fmt.Errorf("opening session folder %s: %w", path, err)
}

func isLink(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}
