//go:build !linux && !darwin

package bundle

import (
	"errors"
	"os"
)

// exchange swaps the directories a and b in one step, where the system can;
// here it cannot, and WriteDir falls back to two renames.
func exchange(a, b string) error { return errors.ErrUnsupported }

// claim renames the directory from to to, which is an empty directory.
func claim(from, to string) error {
	if err := os.Remove(to); err != nil {
		return err
	}
	return os.Rename(from, to)
}
