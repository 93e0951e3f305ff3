package filestat

import (
	"io/fs"
	"syscall"
)

// Of returns what a Stat records of fi, from Lstat or Stat.
func Of(fi fs.FileInfo) (Stat, bool) {
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

// DevOf returns the device fi is on.
func DevOf(fi fs.FileInfo) (uint64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Dev), true
}
