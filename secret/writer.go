package secret

import (
	"io"
	"strings"
)

// Writer redacts every credential in what is written through it (see
// Redact). Each Write is redacted as a whole: commands write a value in
// one call (a line, a document). A PEM private key whose body comes in
// later writes (a prompt printed line by line) stays redacted until its
// footer.
type Writer struct {
	w     io.Writer
	inPEM bool
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Unwrap returns the writer underneath (to ask whether it is a terminal).
func (w *Writer) Unwrap() io.Writer { return w.w }

// Write writes p with every credential redacted. It reports len(p) on
// success: the caller wrote all of p, whatever reached the writer below.
func (w *Writer) Write(p []byte) (int, error) {
	s := string(p)
	if w.inPEM {
		// The body of a key whose header an earlier write redacted.
		if end := strings.Index(s, "PRIVATE KEY-----"); end >= 0 && strings.Contains(s[:end], "-----END") {
			s = s[end+len("PRIVATE KEY-----"):]
			w.inPEM = false
		} else if t := strings.TrimSpace(s); t == "" || strings.Trim(t, base64Chars) == "" {
			return len(p), nil
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
	if _, err := io.WriteString(w.w, s); err != nil {
		return 0, err
	}
	return len(p), nil
}

const base64Chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="
