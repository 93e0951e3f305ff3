//go:build unix

package source

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps the file name into memory, read-only. The pages it touches
// count in the process's resident memory but are the kernel's page cache,
// not the heap.
func mapFile(name string) ([]byte, func() error, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	size := fi.Size()
	if size <= 0 || int64(int(size)) != size {
		return nil, nil, errors.New("cannot map an empty or huge file")
	}
	b, err := unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return b, func() error { return unix.Munmap(b) }, nil
}
