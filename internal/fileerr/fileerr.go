// Package fileerr says in words why a file a user named could not be
// read, for the messages of every command and program that reads one (a
// key, a reviews file): "no such file", not the system call that failed
// ("open k.pub: no such file or directory").
package fileerr

import (
	"errors"
	"io/fs"
	"syscall"
)

// Why returns the path and the reason in words when err is a failure to
// open or read a file (an *fs.PathError in its chain), ok false
// otherwise. kind names what the file should have been ("key file"), for
// a folder given in its place.
func Why(err error, kind string) (path, why string, ok bool) {
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		return "", "", false
	}
	switch {
	case errors.Is(pe.Err, fs.ErrNotExist):
		why = "no such file"
	case errors.Is(pe.Err, syscall.EISDIR):
		why = "is a directory, not a " + kind
	case errors.Is(pe.Err, fs.ErrPermission):
		why = "cannot be read (permission denied)"
	default:
		why = "cannot be read: " + pe.Err.Error()
	}
	return pe.Path, why, true
}
