//go:build !unix

package source

import "os"

// mapFile reads the file name into memory (where mmap is not at hand).
func mapFile(name string) ([]byte, func() error, error) {
	b, err := os.ReadFile(name)
	return b, func() error { return nil }, err
}
