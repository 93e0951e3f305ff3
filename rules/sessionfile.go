package rules

import (
	"errors"
	"fmt"
	"os"
)

// ReadSessionFile reads the session in the JSON Lines file name (see
// ReadSession). Corrupt lines give the session of the other lines with a
// *CorruptLinesError; a file that cannot be opened or read gives no
// session.
func ReadSessionFile(name string) (*Session, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s, err := ReadSession(f)
	var ce *CorruptLinesError
	if err != nil && !errors.As(err, &ce) {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	return s, err
}
