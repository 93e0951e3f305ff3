//go:build !linux

package bundle

import "os"

// umaskKeeps reports whether files and folders made in a folder get their
// modes without a chmod: unknown here, so no, and files and folders are
// chmod-ed after they are made.
func umaskKeeps(string, os.FileMode) bool { return false }
