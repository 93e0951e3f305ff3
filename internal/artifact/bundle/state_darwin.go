package bundle

import (
	"io/fs"
	"syscall"
)

// statOf returns what a State records of fi, from Lstat or Stat.
func statOf(fi fs.FileInfo) (Stat, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return Stat{}, false
	}
	return Stat{
		Ino:   st.Ino,
		Size:  st.Size,
		Mode:  uint32(st.Mode),
		Uid:   st.Uid,
		Mtime: st.Mtimespec.Nano(),
		Ctime: st.Ctimespec.Nano(),
	}, true
}

// devOf returns the device fi is on.
func devOf(fi fs.FileInfo) (uint64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Dev), true
}
