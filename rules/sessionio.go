package rules

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"slices"
	"strings"
	"sync"
)

// A session is saved as JSON Lines, one event per line, in order. A call:
//
//	{"tool":"Read","path":"/r/a.go","fingerprint":"9f0c4e1d2a3b4c5d","size":70,"crc32c":1234567890,"args_size":23,"call":{"args":{"file_path":"/r/a.go"},"tool":"Read","result":"..."}}
//
// A plain call, {"tool":"Read","args":{"file_path":"/r/a.go"}}, as a runtime
// records it, reads the same.
//
// and a rule that fired on the call at index (for cooldowns):
//
//	{"fired":"read_before_edit","index":3}
//
// path and fingerprint are what Record derived from the uncut arguments;
// size and crc32c (CRC-32C, Castagnoli) cover the bytes of the call value,
// which comes last; args_size is the length of its args value, which comes
// first in it. They let a reader take a line's aggregates from its header and
// leave the call undecoded until an expression looks at it (and decode the
// arguments without the result), so loading a long session costs little more
// than reading it. A line without size and crc32c, or with its keys in
// another order, is decoded whole.
// Empty lines are ignored.

// crcTable is made on first use: a process that reads no session (charter
// version, lint) does not build it.
var crcTable = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// callHeader is the part of a call line before the call.
type callHeader struct {
	Tool        string  `json:"tool"`
	ID          string  `json:"id,omitempty"`
	Path        string  `json:"path,omitempty"`
	Fingerprint string  `json:"fingerprint,omitempty"`
	Size        *int    `json:"size,omitempty"`
	CRC         *uint32 `json:"crc32c,omitempty"`
	ArgsSize    *int    `json:"args_size,omitempty"`
}

// anyLine is any line, decoded whole. A recorded session may also hold
// plain calls, {"tool": ..., "args": ..., "result": ...}, one per line.
type anyLine struct {
	callHeader
	Call   *Call          `json:"call,omitempty"`
	Args   map[string]any `json:"args,omitempty"`
	Result any            `json:"result,omitempty"`
	Fired  string         `json:"fired,omitempty"`
	Index  *int           `json:"index,omitempty"`
	Ask    string         `json:"ask,omitempty"`
	Key    string         `json:"key,omitempty"`
}

// firedLine is a fired line.
type firedLine struct {
	Fired string `json:"fired"`
	Index int    `json:"index"`
}

var callKey = []byte(`,"call":`)

// MaxSessionLineBytes is the longest line ReadSession accepts; a longer line
// is reported as corrupt and skipped.
const MaxSessionLineBytes = 16 << 20

// appendCallLine appends the line of call i, with its newline. The call's
// JSON starts with its arguments, whose length the header gives, so that a
// reader can decode them without the result.
func (s *Session) appendCallLine(buf []byte, i int) ([]byte, error) {
	e := &s.calls[i]
	body, rawArgs := e.raw, e.rawArgs
	if body == nil || rawArgs == nil {
		c := e.call
		if body != nil {
			c = s.callAt(i)
		}
		var err error
		if body, rawArgs, err = encodeCall(c); err != nil {
			return buf, fmt.Errorf("encoding call %d: %w", i, err)
		}
	}
	size, sum, argsSize := len(body), crc32.Checksum(body, crcTable()), len(rawArgs)
	head, err := marshalNoEscape(callHeader{Tool: e.tool, ID: e.id, Path: e.path, Fingerprint: e.fingerprint, Size: &size, CRC: &sum, ArgsSize: &argsSize})
	if err != nil {
		return buf, fmt.Errorf("encoding call %d: %w", i, err)
	}
	buf = append(buf, head[:len(head)-1]...)
	buf = append(buf, callKey...)
	buf = append(buf, body...)
	return append(buf, "}\n"...), nil
}

var argsKey = []byte(`{"args":`)

// encodeCall returns a call's JSON, {"args":...,"tool":...,"result":...},
// and the part of it that holds the arguments.
func encodeCall(c Call) (body, rawArgs []byte, err error) {
	args := c.Args
	if args == nil {
		args = map[string]any{}
	}
	a, err := marshalNoEscape(args)
	if err != nil {
		return nil, nil, err
	}
	t, err := marshalNoEscape(c.Tool)
	if err != nil {
		return nil, nil, err
	}
	body = append(append(body, argsKey...), a...)
	body = append(append(body, `,"tool":`...), t...)
	if c.Result != nil {
		r, err := marshalNoEscape(c.Result)
		if err != nil {
			return nil, nil, err
		}
		body = append(append(body, `,"result":`...), r...)
	}
	body = append(body, '}')
	return body, body[len(argsKey) : len(argsKey)+len(a)], nil
}

// appendFiredLine appends a fired line, with its newline.
func appendFiredLine(buf []byte, rule string, index int) ([]byte, error) {
	b, err := marshalNoEscape(firedLine{Fired: rule, Index: index})
	if err != nil {
		return buf, err
	}
	buf = append(buf, b...)
	return append(buf, '\n'), nil
}

// marshalNoEscape is json.Marshal without HTML escaping and without the
// trailing newline.
func marshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// sortedFired returns the rules that fired, sorted.
func (s *Session) sortedFired() []string {
	rules := make([]string, 0, len(s.fired))
	for r := range s.fired {
		rules = append(rules, r)
	}
	slices.Sort(rules)
	return rules
}

// appendAskLine appends an ask line, with its newline.
func appendAskLine(buf []byte, a askEvent) ([]byte, error) {
	b, err := marshalNoEscape(a)
	if err != nil {
		return buf, err
	}
	buf = append(buf, b...)
	return append(buf, '\n'), nil
}

// WriteJSONL writes the session as JSON Lines: every call, oldest first, then
// one fired line per rule that fired, sorted by rule id, then one ask line
// per ask rule still waiting for its call to run, oldest first.
func (s *Session) WriteJSONL(w io.Writer) error {
	bw := bufio.NewWriter(w)
	var buf []byte
	if s != nil {
		for i := range s.calls {
			var err error
			if buf, err = s.appendCallLine(buf[:0], i); err != nil {
				return err
			}
			if _, err := bw.Write(buf); err != nil {
				return err
			}
		}
		for _, r := range s.sortedFired() {
			var err error
			if buf, err = appendFiredLine(buf[:0], r, s.fired[r]); err != nil {
				return err
			}
			if _, err := bw.Write(buf); err != nil {
				return err
			}
		}
		for _, key := range s.askOrder {
			for _, r := range s.asked[key] {
				var err error
				if buf, err = appendAskLine(buf[:0], askEvent{Ask: r, Key: key}); err != nil {
					return err
				}
				if _, err := bw.Write(buf); err != nil {
					return err
				}
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

// Error returns "line N: what is wrong".
func (e LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

// CorruptLinesError lists the lines ReadSession skipped. The session it
// returns along with it holds every other line.
type CorruptLinesError struct {
	Lines []LineError
}

// Error says how many lines were skipped and why, the first five in full.
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
			if lerr := s.readLine(line, true); lerr != nil {
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

// readSessionBytes reads a whole saved session held in memory; the session
// keeps slices of data, which the caller must not change.
func readSessionBytes(data []byte) (*Session, *CorruptLinesError) {
	s := &Session{}
	var bad []LineError
	for n := 1; len(data) > 0; n++ {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if len(line) > MaxSessionLineBytes {
			bad = append(bad, LineError{n, fmt.Errorf("longer than %d bytes", MaxSessionLineBytes)})
			continue
		}
		if err := s.readLine(line, false); err != nil {
			bad = append(bad, LineError{n, err})
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

// readLine applies one line of a saved session. When clone is set, the
// session keeps copies of the line's bytes, not slices of it.
func (s *Session) readLine(b []byte, clone bool) error {
	// Fast path: a call line as appendCallLine writes it.
	if i := bytes.Index(b, callKey); i > 0 && b[len(b)-1] == '}' {
		head := make([]byte, 0, i+1)
		head = append(append(head, b[:i]...), '}')
		var h callHeader
		if err := json.Unmarshal(head, &h); err == nil && h.Size != nil && h.CRC != nil && h.Fingerprint != "" {
			body := b[i+len(callKey) : len(b)-1]
			switch {
			case h.Tool == "":
				return errors.New("call has no tool")
			case len(body) != *h.Size:
				return fmt.Errorf("call is %d bytes, its header says %d (a torn or edited line)", len(body), *h.Size)
			case crc32.Checksum(body, crcTable()) != *h.CRC:
				return errors.New("call does not match its checksum (an edited or damaged line)")
			case body[0] != '{':
				return errors.New("call is not a JSON object")
			}
			if clone {
				body = bytes.Clone(body)
			}
			var rawArgs []byte
			if h.ArgsSize != nil && bytes.HasPrefix(body, argsKey) && *h.ArgsSize > 0 && len(argsKey)+*h.ArgsSize < len(body) {
				rawArgs = body[len(argsKey) : len(argsKey)+*h.ArgsSize]
			}
			s.addRaw(cutString(h.Tool, MaxHistoryStringBytes), cutString(h.ID, 256), body, rawArgs, h.Path, h.Fingerprint)
			return nil
		}
	}
	var l anyLine
	if err := json.Unmarshal(b, &l); err != nil {
		return fmt.Errorf("not a session event: %w", err)
	}
	if l.Call == nil && l.Fired == "" && l.Ask == "" && l.Tool != "" {
		l.Call = &Call{Tool: l.Tool, Args: l.Args, Result: l.Result, ID: l.ID}
	}
	switch {
	case l.Ask != "" && l.Call == nil && l.Fired == "":
		if l.Key == "" {
			return errors.New("ask event needs a key")
		}
		s.addAsk(cutString(l.Key, 512), l.Ask)
		s.askLines++
	case l.Call != nil && l.Fired == "":
		tool := l.Call.Tool
		if tool == "" {
			tool = l.Tool
		}
		if tool == "" {
			return errors.New("call has no tool")
		}
		tool = cutString(tool, MaxHistoryStringBytes)
		args := boundArgs(l.Call.Args, MaxHistoryStringBytes)
		p, fp := l.Path, l.Fingerprint
		if p == "" {
			p = callPath(args)
		}
		if fp == "" {
			fp = fingerprint(tool, args)
		}
		id := l.Call.ID
		if id == "" {
			id = l.ID
		}
		s.add(Call{Tool: tool, Args: args, Result: boundValue(l.Call.Result, MaxHistoryStringBytes), ID: cutString(id, 256)}, p, fp)
	case l.Fired != "" && l.Call == nil:
		if l.Index == nil || *l.Index < 0 {
			return errors.New("fired event needs a non-negative index")
		}
		s.MarkFired(l.Fired, *l.Index)
		s.firedLines++
	default:
		return errors.New("a line holds a call, a fired event or an ask event")
	}
	return nil
}
