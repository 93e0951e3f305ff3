//go:build !unix

package evalcache

import "io/fs"

// private reports whether no one else may write fi, as far as its mode
// tells.
func private(fi fs.FileInfo) bool { return fi.Mode().Perm()&0o022 == 0 }
