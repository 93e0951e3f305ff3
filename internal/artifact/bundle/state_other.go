//go:build !linux && !darwin

package bundle

import "io/fs"

// statOf would return what a State records of fi; here the stats are
// unknown, so a State spares nothing and every file is compared.
func statOf(fs.FileInfo) (Stat, bool) { return Stat{}, false }

// devOf would return the device fi is on: unknown here.
func devOf(fs.FileInfo) (uint64, bool) { return 0, false }
