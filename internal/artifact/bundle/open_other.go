//go:build !unix

package bundle

import "os"

// openOwn opens name for reading if it is a regular file (not a link).
// Modes and owners are not checked here: Windows has neither as Unix does.
func openOwn(name string) (*os.File, os.FileInfo, bool) {
	if fi, err := os.Lstat(name); err != nil || !fi.Mode().IsRegular() {
		return nil, nil, false
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, false
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, false
	}
	return f, fi, true
}

// ours reports whether fi belongs to this process's user: always, here.
func ours(fi os.FileInfo) bool { return true }
