package bundle

import "golang.org/x/sys/unix"

// exchange swaps the directories a and b in one step.
func exchange(a, b string) error { return unix.RenamexNp(a, b, unix.RENAME_SWAP) }

// claim renames the directory from to to, which must be an empty
// directory (rename(2) replaces one; os.Rename refuses).
func claim(from, to string) error { return unix.Rename(from, to) }
