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
// When it fails, to is left an empty directory, as rename(2) leaves it: the
// build then writes a fresh tree into it.
func claim(from, to string) error {
	if err := os.Remove(to); err != nil {
		return err
	}
	if err := os.Rename(from, to); err != nil {
		if merr := os.Mkdir(to, 0o700); merr != nil {
			return errors.Join(err, merr)
		}
		return err
	}
	return nil
}
