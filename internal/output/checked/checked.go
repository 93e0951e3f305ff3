// Package checked holds the writer under a program's standard output and
// error: it keeps the first write error, so that a program that prints
// through many layers (the credential filter, formatters) checks once, at
// exit, whether everything it printed was written.
package checked

import "io"

// Writer writes to W and keeps the first error; after one, it writes
// nothing more.
type Writer struct {
	W   io.Writer
	err error
}

func (c *Writer) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.W.Write(p)
	if err != nil {
		c.err = err
	}
	return n, err
}

// Err returns the first error a write returned, nil when none did.
func (c *Writer) Err() error { return c.err }

// Unwrap returns the writer underneath (to ask whether it is a terminal).
func (c *Writer) Unwrap() io.Writer { return c.W }
