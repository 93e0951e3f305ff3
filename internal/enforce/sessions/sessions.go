// Package sessions keeps the sessions charter serve judges tool calls in:
// in the server's memory (Memory: bounded, lost on restart) or in Redis
// (Redis: shared by replicas, kept across restarts). Both give one
// session's calls in order, one at a time: an update runs on the latest
// state of its session, whichever replica runs it.
package sessions

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/charter-dev/charter/rules"
)

// Store keeps sessions by key (rules.AgentKey of a session id and an
// agent). It satisfies claudecode.Sessions.
type Store interface {
	// Update runs fn on the session under key, one update of a key at a
	// time, and keeps what fn left unless it returns an error.
	Update(key string, fn func(s *rules.Session) error) (*rules.CorruptLinesError, error)
	// View returns a copy of the session under key (empty when there is
	// none), for a judgement that must change nothing.
	View(key string) (*rules.Session, error)
	// Remove deletes every session of the session id.
	Remove(session string) error
	// Prune deletes the sessions idle for longer than age.
	Prune(age time.Duration) (int, error)
	// Count is the number of sessions kept, -1 when the store cannot
	// tell cheaply.
	Count() int
	// Close releases the store.
	Close() error
}

// Limits bound what a store keeps.
type Limits struct {
	// MaxCalls is the most calls one session holds; a session at it
	// takes no more (its calls are denied: a rule's history would be
	// cut otherwise).
	MaxCalls int
	// MaxSessions is the most sessions a Memory store holds; past it, the
	// session idle longest is dropped.
	MaxSessions int
	// Idle is how long a session is kept without a call.
	Idle time.Duration
}

// DefaultLimits are the limits charter serve starts with.
var DefaultLimits = Limits{MaxCalls: 10_000, MaxSessions: 10_000, Idle: 24 * time.Hour}

// FullError is a session at its limit of calls.
type FullError struct{ Calls int }

func (e *FullError) Error() string {
	return fmt.Sprintf("the session holds %d calls, the most a session may (raise --max-calls, or start a new session)", e.Calls)
}

// plainID reports whether id is 1 to 128 letters, digits and . _ : @ -,
// starting with a letter or digit. (A regexp of it compiled 127 copies of
// its class in init, for every command.)
func plainID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case i > 0 && strings.IndexByte("._:@-", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// CheckID checks a session id a caller gives: letters, digits and
// . _ : @ -, at most 128, no "..".
func CheckID(id string) error {
	if !plainID(id) || strings.Contains(id, "..") {
		return fmt.Errorf("session id %q is not one charter keeps: use 1 to 128 letters, digits and . _ : @ -, starting with a letter or digit, without \"..\"", cut(id))
	}
	return nil
}

func cut(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}

// clone copies a session through its saved form.
func clone(s *rules.Session) (*rules.Session, error) {
	var b bytes.Buffer
	if err := s.WriteJSONL(&b); err != nil {
		return nil, err
	}
	return rules.ReadSession(&b)
}

// FromHistory builds a session from the calls a stateless caller kept,
// oldest first, each recorded as having run.
func FromHistory(calls []rules.Call) *rules.Session {
	s := &rules.Session{}
	for _, c := range calls {
		s.Record(c)
	}
	return s
}

// sessionOf is the session id of a key (rules.AgentKey).
func sessionOf(key string) string {
	id, _, _ := strings.Cut(key, "\x00")
	return id
}

var errClosed = errors.New("the session store is closed")
