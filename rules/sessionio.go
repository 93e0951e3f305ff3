package rules

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// A session is saved as JSON Lines, one event per line, in order:
//
//	{"call":{"tool":"Read","args":{"file_path":"a.go"},"result":"..."},"path":"a.go","fingerprint":"9f0c..."}
//	{"fired":"read_before_edit","index":3}
//
// A call line records a call (path and fingerprint are what Record derived
// from the uncut arguments; when missing they are derived again). A fired
// line says a rule fired on the call at index, for cooldowns. Empty lines
// are ignored.

// sessionLine is one line of a saved session.
type sessionLine struct {
	Call        *Call  `json:"call,omitempty"`
	Path        string `json:"path,omitempty"`
	Fingerprint string `json:"fingerprint,omitempty"`
	Fired       string `json:"fired,omitempty"`
	Index       *int   `json:"index,omitempty"`
}

// MaxSessionLineBytes is the longest line ReadSession accepts; a longer line
// is reported as corrupt and skipped.
const MaxSessionLineBytes = 16 << 20

// WriteJSONL writes the session as JSON Lines: every call, oldest first, then
// one fired line per rule that fired, sorted by rule id.
func (s *Session) WriteJSONL(w io.Writer) error {
	bw := bufio.NewWriter(w)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	write := func(l sessionLine) error {
		buf.Reset()
		if err := enc.Encode(l); err != nil {
			return err
		}
		_, err := bw.Write(buf.Bytes())
		return err
	}
	if s != nil {
		for i := range s.calls {
			e := &s.calls[i]
			if err := write(sessionLine{Call: &e.call, Path: e.path, Fingerprint: e.fingerprint}); err != nil {
				return fmt.Errorf("writing call %d: %w", i, err)
			}
		}
		rules := make([]string, 0, len(s.fired))
		for r := range s.fired {
			rules = append(rules, r)
		}
		slices.Sort(rules)
		for _, r := range rules {
			i := s.fired[r]
			if err := write(sessionLine{Fired: r, Index: &i}); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

// LineError is one line of a saved session that could not be read.
type LineError struct {
	// Line is the line's number, from 1.
	Line int
	// Err says what is wrong with it.
	Err error
}

func (e LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

// CorruptLinesError lists the lines ReadSession skipped. The session it
// returns along with it holds every other line.
type CorruptLinesError struct {
	Lines []LineError
}

func (e *CorruptLinesError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d corrupt line", len(e.Lines))
	if len(e.Lines) != 1 {
		b.WriteString("s")
	}
	b.WriteString(" skipped (the other lines were read)")
	for i, l := range e.Lines {
		if i == 5 {
			fmt.Fprintf(&b, "; and %d more", len(e.Lines)-i)
			break
		}
		b.WriteString("; ")
		b.WriteString(l.Error())
	}
	return b.String()
}

// ReadSession reads a session saved by WriteJSONL (or appended to, line by
// line, in the same format). A line that is not valid is skipped; the
// session holds every other line, and the error is a *CorruptLinesError
// naming each skipped line. Any other error is from reading r; the session
// then holds what was read before it.
func ReadSession(r io.Reader) (*Session, error) {
	s := &Session{}
	br := bufio.NewReaderSize(r, 64<<10)
	var bad []LineError
	var line []byte
	for n := 1; ; n++ {
		var tooLong bool
		var err error
		line, tooLong, err = readLine(br, line[:0])
		if err != nil && err != io.EOF {
			return s, fmt.Errorf("reading session: %w", err)
		}
		if tooLong {
			bad = append(bad, LineError{n, fmt.Errorf("longer than %d bytes", MaxSessionLineBytes)})
		} else if len(bytes.TrimSpace(line)) > 0 {
			if lerr := s.readLine(line); lerr != nil {
				bad = append(bad, LineError{n, lerr})
			}
		}
		if err == io.EOF {
			break
		}
	}
	if len(bad) > 0 {
		return s, &CorruptLinesError{Lines: bad}
	}
	return s, nil
}

// readLine reads one line into buf, without its newline. A line longer than
// MaxSessionLineBytes is consumed and reported as too long.
func readLine(br *bufio.Reader, buf []byte) ([]byte, bool, error) {
	tooLong := false
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(chunk) > MaxSessionLineBytes+1 {
				tooLong = true
				buf = buf[:0]
			} else {
				buf = append(buf, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		buf = bytes.TrimSuffix(buf, []byte("\n"))
		return buf, tooLong, err
	}
}

// readLine applies one line of a saved session.
func (s *Session) readLine(b []byte) error {
	var l sessionLine
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		return fmt.Errorf("not a session event: %v", err)
	}
	if dec.More() {
		return errors.New("more than one JSON value on the line")
	}
	switch {
	case l.Call != nil && l.Fired == "":
		if l.Call.Tool == "" {
			return errors.New("call has no tool")
		}
		tool := cutString(l.Call.Tool, MaxHistoryStringBytes)
		args := boundArgs(l.Call.Args, MaxHistoryStringBytes)
		p, fp := l.Path, l.Fingerprint
		if p == "" {
			p = callPath(args)
		}
		if fp == "" {
			fp = fingerprint(tool, args)
		}
		s.add(Call{Tool: tool, Args: args, Result: boundValue(l.Call.Result, MaxHistoryStringBytes)}, p, fp)
	case l.Fired != "" && l.Call == nil:
		if l.Index == nil || *l.Index < 0 {
			return errors.New("fired event needs a non-negative index")
		}
		s.MarkFired(l.Fired, *l.Index)
	default:
		return errors.New("a line holds either a call or a fired event")
	}
	return nil
}
