//go:build unix

package evalcache

import (
	"io/fs"
	"os"
	"syscall"
)

// private reports whether fi (from Lstat) is this user's own, and no one
// else may write it: an entry another user could have planted is a miss.
func private(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid() && fi.Mode().Perm()&0o022 == 0
}
