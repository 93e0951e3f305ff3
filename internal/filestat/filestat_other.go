//go:build !linux && !darwin

package filestat

import "io/fs"

// Of would return what a Stat records of fi; here the stats are
// unknown, so nothing is ever known unchanged.
func Of(fs.FileInfo) (Stat, bool) { return Stat{}, false }

// DevOf would return the device fi is on: unknown here.
func DevOf(fs.FileInfo) (uint64, bool) { return 0, false }
