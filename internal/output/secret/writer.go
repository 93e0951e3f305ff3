package secret

import (
	"bytes"
	"io"
	"strings"
)

// Writer redacts every credential in what is written through it (see
// Redact). It redacts whole lines: what follows the last line feed waits
// for the next Write or for Flush, so that a credential written in two
// parts (a bufio.Writer's 4096-byte chunks, a template's literal and
// value) is still seen whole; only a PEM key spans lines, and a PEM
// private key whose body comes in later writes (a prompt printed line by
// line) stays redacted until its footer. Call Flush when done.
type Writer struct {
	w       io.Writer
	inPEM   bool
	pending []byte // after the last line feed written
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Unwrap returns the writer underneath (to ask whether it is a terminal).
func (w *Writer) Unwrap() io.Writer { return w.w }

// Write writes the lines p completes with every credential redacted, and
// keeps the rest for later. It reports len(p) on success: the caller wrote
// all of p, whatever reached the writer below.
func (w *Writer) Write(p []byte) (int, error) {
	i := bytes.LastIndexByte(p, '\n')
	if i < 0 {
		w.pending = append(w.pending, p...)
		return len(p), nil
	}
	s := string(w.pending) + string(p[:i+1])
	w.pending = append(w.pending[:0], p[i+1:]...)
	if err := w.write(s); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes, redacted, what the last Write left after its last line
// feed.
func (w *Writer) Flush() error {
	if len(w.pending) == 0 {
		return nil
	}
	s := string(w.pending)
	w.pending = w.pending[:0]
	return w.write(s)
}

func (w *Writer) write(s string) error {
	if w.inPEM {
		// The body of a key whose header an earlier write redacted.
		if end := strings.Index(s, "PRIVATE KEY-----"); end >= 0 && strings.Contains(s[:end], "-----END") {
			s = s[end+len("PRIVATE KEY-----"):]
			w.inPEM = false
		} else if t := strings.TrimSpace(s); t == "" || strings.Trim(t, base64Chars) == "" {
			return nil
		} else {
			w.inPEM = false
		}
	}
	if MayContain(s) {
		ms := Find(s)
		if n := len(ms); n > 0 {
			last := ms[n-1]
			if last.Shape.Prefix == "-----BEGIN" && strings.TrimSpace(s[last.End:]) == "" && !strings.Contains(s[last.Start:], "-----END") {
				w.inPEM = true
			}
			s = Redact(s)
		}
	}
	_, err := io.WriteString(w.w, s)
	return err
}

const base64Chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="

// RedactLines returns lines, each printed on a line of its own (a prompt's
// lines beside their sources), redacted as a Writer redacts them when they
// are written one after another: the body and footer of a PEM private key
// whose header one line holds come out empty. Redacting each line alone
// would print the body, which has no shape of its own.
func RedactLines(lines []string) []string {
	var buf strings.Builder
	w := NewWriter(&buf)
	out := make([]string, len(lines))
	for i, l := range lines {
		buf.Reset()
		// The writer redacts whole lines: a line feed ends each one.
		_, _ = w.Write([]byte(strings.ReplaceAll(l, "\n", " ") + "\n"))
		out[i] = strings.TrimSuffix(buf.String(), "\n")
	}
	return out
}
