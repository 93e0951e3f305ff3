package checked

import (
	"bytes"
	"errors"
	"testing"
)

type failAfter struct {
	n   int
	buf bytes.Buffer
}

var errFull = errors.New("full")

func (f *failAfter) Write(p []byte) (int, error) {
	if f.n == 0 {
		return 0, errFull
	}
	f.n--
	return f.buf.Write(p)
}

func TestWriterKeepsFirstError(t *testing.T) {
	under := &failAfter{n: 1}
	w := &Writer{W: under}
	if _, err := w.Write([]byte("a")); err != nil || w.Err() != nil {
		t.Fatalf("first write: %v, %v", err, w.Err())
	}
	if _, err := w.Write([]byte("b")); !errors.Is(err, errFull) {
		t.Fatalf("second write: %v", err)
	}
	under.n = 5 // the writer underneath recovers: nothing more is written
	if _, err := w.Write([]byte("c")); !errors.Is(err, errFull) || !errors.Is(w.Err(), errFull) || under.buf.String() != "a" {
		t.Fatalf("after an error: %v, %v, %q written", err, w.Err(), under.buf.String())
	}
}
