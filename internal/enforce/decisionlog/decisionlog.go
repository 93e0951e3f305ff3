// Package decisionlog writes charter serve's decision log: JSON Lines,
// one record per decision, each holding the SHA-256 of the line before
// it, so that a record edited or deleted (but the last ones) breaks the
// chain Verify checks. Credentials in a record are redacted by the one
// detector (internal/output/secret) before it is written. The log rotates
// by size: FILE becomes FILE.1 (FILE.1 becomes FILE.2, ...), and the new
// FILE's first record chains to the last of the old.
package decisionlog

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/charter-dev/charter/internal/output/secret"
)

// Agent is the agent version a decision was taken for (seed 004's
// DecisionRecord charter_version).
type Agent struct {
	ID          string `json:"id"`
	Version     int    `json:"version,omitempty"`
	ContentHash string `json:"content_hash,omitempty"`
}

// Bundle is the bundle a decision was taken on.
type Bundle struct {
	Revision string `json:"revision,omitempty"`
	Digest   string `json:"digest,omitempty"`
}

// Rule is one rule that fired.
type Rule struct {
	Rule    string `json:"rule"`
	Action  string `json:"action"`
	Message string `json:"message"`
}

// Record is one decision.
type Record struct {
	Seq        int64     `json:"seq"`
	Prev       string    `json:"prev"`
	DecisionID string    `json:"decision_id"`
	Time       time.Time `json:"time"`
	Endpoint   string    `json:"endpoint"`
	Agent      Agent     `json:"agent"`
	Bundle     Bundle    `json:"bundle"`
	Session    string    `json:"session,omitempty"`
	Tool       string    `json:"tool"`
	Phase      string    `json:"phase"`
	Decision   string    `json:"decision"`
	Rules      []Rule    `json:"rules"`
	Reason     string    `json:"reason,omitempty"`
	Input      any       `json:"input,omitempty"`
}

// Log appends records to a file. It is safe for concurrent use.
type Log struct {
	path     string
	maxBytes int64
	keep     int

	mu   sync.Mutex
	f    *os.File
	size int64
	prev string
	seq  int64
}

// Open opens (or creates) the log at path, continuing its chain; it
// rotates when the file passes maxBytes (0: never), keeping keep old
// files.
func Open(path string, maxBytes int64, keep int) (*Log, error) {
	l := &Log{path: path, maxBytes: maxBytes, keep: max(keep, 1)}
	if err := l.open(); err != nil {
		return nil, err
	}
	return l, nil
}

func (l *Log) open() error {
	f, err := os.OpenFile(l.path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("decision log: %v", err)
	}
	last, size, err := lastLine(f)
	if err != nil {
		f.Close()
		return fmt.Errorf("decision log %s: %v", l.path, err)
	}
	l.f, l.size = f, size
	if last != nil {
		var r struct {
			Seq int64 `json:"seq"`
		}
		if err := json.Unmarshal(last, &r); err != nil {
			f.Close()
			return fmt.Errorf("decision log %s: its last line is not a record (%v); move the file away to start a new log", l.path, err)
		}
		l.prev, l.seq = lineHash(last), r.Seq
	}
	return nil
}

// lastLine returns the file's last line and its size.
func lastLine(f *os.File) ([]byte, int64, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	size := fi.Size()
	if size == 0 {
		return nil, 0, nil
	}
	// Read back from the end until a line break before the last line.
	chunk := int64(64 << 10)
	for {
		off := max(0, size-chunk)
		buf := make([]byte, size-off)
		if _, err := f.ReadAt(buf, off); err != nil && err != io.EOF {
			return nil, 0, err
		}
		body := bytes.TrimSuffix(buf, []byte("\n"))
		if i := bytes.LastIndexByte(body, '\n'); i >= 0 {
			return body[i+1:], size, nil
		}
		if off == 0 {
			return body, size, nil
		}
		chunk *= 4
	}
}

func lineHash(line []byte) string {
	sum := sha256.Sum256(line)
	return hex.EncodeToString(sum[:])
}

// Write appends r, setting its Seq and Prev, its credentials redacted.
func (l *Log) Write(r Record) error {
	redactRecord(&r)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return errors.New("decision log is closed")
	}
	r.Seq, r.Prev = l.seq+1, l.prev
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("decision log: %v", err)
	}
	line := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	if l.maxBytes > 0 && l.size > 0 && l.size+int64(len(line))+1 > l.maxBytes {
		if err := l.rotate(); err != nil {
			return err
		}
	}
	n, err := l.f.Write(append(line, '\n'))
	l.size += int64(n)
	if err != nil {
		return fmt.Errorf("decision log: %v", err)
	}
	l.seq, l.prev = r.Seq, lineHash(line)
	return nil
}

// redactRecord redacts the credentials of every string r holds (by
// shape, and in the input by field name too), value by value before r is
// encoded: in the encoded line a shape that follows an escape (\n, \t,
// \") is not where a value starts, so it went unredacted, or was
// redacted with half the escape, leaving a line that is not JSON.
func redactRecord(r *Record) {
	for _, s := range []*string{&r.DecisionID, &r.Endpoint, &r.Agent.ID, &r.Agent.ContentHash,
		&r.Bundle.Revision, &r.Bundle.Digest, &r.Session, &r.Tool, &r.Phase, &r.Decision, &r.Reason} {
		*s = secret.Redact(*s)
	}
	if r.Rules != nil {
		rules := make([]Rule, len(r.Rules))
		for i, x := range r.Rules {
			rules[i] = Rule{Rule: secret.Redact(x.Rule), Action: secret.Redact(x.Action), Message: secret.Redact(x.Message)}
		}
		r.Rules = rules
	}
	r.Input = redactValue(secret.RedactNamed(plain(r.Input)))
}

// plain returns v as the JSON values encoding/json decodes (maps, lists,
// strings, numbers), so that redactValue sees every string of it.
func plain(v any) any {
	switch v.(type) {
	case nil, map[string]any, []any, string, bool, float64, json.Number:
		return v
	}
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out any
	if dec.Decode(&out) != nil {
		return v
	}
	return out
}

// redactValue returns v with every string and member name redacted by
// shape; v is not changed.
func redactValue(v any) any {
	switch x := v.(type) {
	case string:
		return secret.Redact(x)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[secret.Redact(k)] = redactValue(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = redactValue(e)
		}
		return out
	}
	return v
}

// rotate moves the file to FILE.1 (and the older ones up) and starts a
// new one; the chain goes on.
func (l *Log) rotate() error {
	if err := l.f.Close(); err != nil {
		return fmt.Errorf("decision log: %v", err)
	}
	l.f = nil
	os.Remove(l.path + "." + strconv.Itoa(l.keep))
	for i := l.keep - 1; i >= 1; i-- {
		os.Rename(l.path+"."+strconv.Itoa(i), l.path+"."+strconv.Itoa(i+1))
	}
	if err := os.Rename(l.path, l.path+".1"); err != nil {
		return fmt.Errorf("decision log: rotating: %v", err)
	}
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("decision log: %v", err)
	}
	l.f, l.size = f, 0
	return nil
}

// Close closes the log.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Sync()
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	return err
}

// Problem is one break in a log's chain.
type Problem struct {
	File string
	Line int
	What string
}

func (p Problem) Error() string { return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.What) }

// Report is what Verify found.
type Report struct {
	Records  int
	First    int64 // seq of the first record
	Last     int64 // seq of the last record
	Problems []Problem
}

// Verify checks the chain of the log files given oldest first (FILE.2,
// FILE.1, FILE): every record's prev is the hash of the line before it,
// and seq counts up by one. The first record's prev is taken as given:
// the records before it are not at hand.
func Verify(files []string, open func(string) (io.ReadCloser, error)) (*Report, error) {
	rep := &Report{}
	prev, seq := "", int64(0)
	started := false
	for _, name := range files {
		f, err := open(name)
		if err != nil {
			return nil, err
		}
		br := bufio.NewReaderSize(f, 1<<16)
		n := 0
		for {
			line, err := br.ReadBytes('\n')
			if len(line) == 0 && err == io.EOF {
				break
			}
			if err != nil && err != io.EOF {
				f.Close()
				return nil, fmt.Errorf("%s: %v", name, err)
			}
			n++
			if !bytes.HasSuffix(line, []byte("\n")) {
				rep.Problems = append(rep.Problems, Problem{name, n, "the last line is cut short (no line break): a write was interrupted, or the file was cut"})
			}
			line = bytes.TrimSuffix(line, []byte("\n"))
			var r struct {
				Seq  *int64  `json:"seq"`
				Prev *string `json:"prev"`
			}
			if err := json.Unmarshal(line, &r); err != nil || r.Seq == nil || r.Prev == nil {
				rep.Problems = append(rep.Problems, Problem{name, n, "not a decision record (want a JSON object with seq and prev)"})
				prev, started = lineHash(line), true
				seq++
				continue
			}
			switch {
			case !started:
				rep.First = *r.Seq
			case *r.Prev != prev:
				rep.Problems = append(rep.Problems, Problem{name, n, fmt.Sprintf("record %d does not follow the line before it (its prev is %.12s…, the line before hashes to %.12s…): a record was edited, removed or put in between", *r.Seq, *r.Prev, prev)})
			case *r.Seq != seq+1:
				rep.Problems = append(rep.Problems, Problem{name, n, fmt.Sprintf("record %d follows record %d", *r.Seq, seq)})
			}
			started = true
			prev, seq = lineHash(line), *r.Seq
			rep.Records++
			rep.Last = *r.Seq
			if err == io.EOF {
				break
			}
		}
		f.Close()
	}
	return rep, nil
}

// OpenFile opens a log file for Verify.
func OpenFile(name string) (io.ReadCloser, error) { return os.Open(name) }
