//go:build !linux

package bundle

import "os"

// umaskKeeps reports whether the umask leaves mode's bits alone: unknown
// here, so no, and files and folders are chmod-ed after they are made.
func umaskKeeps(os.FileMode) bool { return false }
