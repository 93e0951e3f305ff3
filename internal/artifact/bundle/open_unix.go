//go:build unix

package bundle

import (
	"os"
	"syscall"
)

// openOwn opens name for reading if it is a regular file (not a link)
// owned by this process's user, with mode 0644.
func openOwn(name string) (*os.File, os.FileInfo, bool) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, nil, false
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o644 || !ours(fi) {
		f.Close()
		return nil, nil, false
	}
	return f, fi, true
}

// ours reports whether fi (from Lstat or Stat) belongs to this process's
// user.
func ours(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}
