//go:build unix

package bundle

import (
	"os"
	"syscall"
)

// openOwn opens name for reading if it is a regular file (not a link)
// owned by this process's user.
func openOwn(name string) (*os.File, os.FileInfo, bool) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, nil, false
	}
	fi, err := f.Stat()
	if st, ok := fi.Sys().(*syscall.Stat_t); err != nil || !fi.Mode().IsRegular() || !ok || int(st.Uid) != os.Geteuid() {
		f.Close()
		return nil, nil, false
	}
	return f, fi, true
}
