// Package filestat says whether a file is unchanged since it was last
// seen, from its Lstat alone, as Git's index does: a file's contents
// cannot change without its change time (ctime) changing, and a user
// cannot set a ctime. The bundle writer trusts the files of the previous
// bundle so, and a build over the previous bundle its input files.
package filestat

import (
	"io/fs"
	"time"
)

// Stat is what a later look compares of a file or folder's Lstat: a file
// rewritten, replaced, linked or chmod-ed changes at least one of them.
type Stat struct {
	Ino   uint64
	Size  int64
	Mode  uint32 // the system's st_mode: type and permission bits
	Uid   uint32
	Mtime int64 // nanoseconds since 1970
	Ctime int64
}

// The racy window: how close to the time stats were taken a recorded
// mtime or ctime makes an entry "racily clean", to be verified by
// reading, since a change within the same tick of the file system's
// clock may leave its stat as it was. It is at least a tick of that
// clock: 2 s where timestamps are whole seconds (FAT's mtime; ext3,
// HFS+), else 100 ms (ext4, XFS, btrfs and tmpfs keep nanoseconds from a
// clock that ticks every 1 to 10 ms; exFAT, 10 ms).
const (
	RacyCoarse = int64(2 * time.Second)
	RacyFine   = int64(100 * time.Millisecond)
)

// Clean reports whether an entry recorded as rec, by stats taken at time
// at (nanoseconds since 1970, by the file system's clock where it can be
// known) on a file system whose timestamps are whole seconds when coarse,
// is unchanged now that its Lstat is fi.
func Clean(rec Stat, at int64, coarse bool, fi fs.FileInfo) bool {
	w := RacyFine
	if coarse {
		w = RacyCoarse
	}
	if rec.Mtime > at-w || rec.Ctime > at-w {
		return false
	}
	st, ok := Of(fi)
	return ok && st == rec
}
