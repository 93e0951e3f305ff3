package sessions

import (
	"container/list"
	"fmt"
	"hash/maphash"
	"sync"
	"time"

	"github.com/charter-dev/charter/rules"
)

// Memory keeps sessions in the process: fast, bounded by Limits, and gone
// when the process ends.
type Memory struct {
	limits Limits
	now    func() time.Time

	mu     sync.Mutex
	byKey  map[string]*list.Element // of *slot
	lru    *list.List               // front: used most recently
	closed bool

	// dropped holds the session ids (hashed) whose sessions were dropped
	// for room while in use, each with when it was last used (its drop,
	// or a call refused since); at most maxDropped.
	seed    maphash.Seed
	dropped map[uint64]time.Time
}

// DroppedError is a session the store dropped, while in use, to make
// room for others (Limits.MaxSessions): its history is gone, so its
// calls are not judged as a new session's would be.
type DroppedError struct {
	Session     string
	MaxSessions int
}

func (e *DroppedError) Error() string {
	return fmt.Sprintf("session %q was dropped to make room for others (the server holds at most %d, --max-sessions), and its history with it: its calls are not judged again from nothing; end the session and start a new one, or raise --max-sessions", cut(e.Session), e.MaxSessions)
}

type slot struct {
	key  string
	mu   sync.Mutex // held across an update
	s    *rules.Session
	used time.Time
}

// NewMemory returns an empty Memory store with the limits (zero fields
// take DefaultLimits').
func NewMemory(l Limits) *Memory {
	if l.MaxCalls <= 0 {
		l.MaxCalls = DefaultLimits.MaxCalls
	}
	if l.MaxSessions <= 0 {
		l.MaxSessions = DefaultLimits.MaxSessions
	}
	if l.Idle <= 0 {
		l.Idle = DefaultLimits.Idle
	}
	return &Memory{limits: l, now: time.Now, byKey: map[string]*list.Element{}, lru: list.New(),
		seed: maphash.MakeSeed(), dropped: map[uint64]time.Time{}}
}

// maxDropped bounds how many dropped session ids a store remembers.
func (m *Memory) maxDropped() int { return max(1024, 4*m.limits.MaxSessions) }

// droppedErr says whether key's session was dropped, and counts the
// refused call as a use of it; m.mu is held.
func (m *Memory) droppedErr(key string, now time.Time) error {
	id := sessionOf(key)
	h := maphash.String(m.seed, id)
	if used, ok := m.dropped[h]; ok {
		if now.Sub(used) <= m.limits.Idle {
			m.dropped[h] = now
			return &DroppedError{Session: id, MaxSessions: m.limits.MaxSessions}
		}
		// Idle past Idle, it would have started again empty anyway.
		delete(m.dropped, h)
	}
	return nil
}

// forgetIdle forgets the dropped sessions unused since cutoff; m.mu is
// held.
func (m *Memory) forgetIdle(cutoff time.Time) {
	for h, used := range m.dropped {
		if used.Before(cutoff) {
			delete(m.dropped, h)
		}
	}
}

// drop removes a slot for room; m.mu is held. A session in use (one
// updated within Idle, or being updated now) is remembered as dropped;
// an idle one would start again empty anyway. When the store remembers
// as many dropped sessions as it may, it drops no session in use: it
// returns the error that refuses the new one, since forgetting a
// dropped one would let it start again empty.
func (m *Memory) drop(el *list.Element, now time.Time) error {
	sl := el.Value.(*slot)
	inUse := true
	if sl.mu.TryLock() {
		inUse = now.Sub(sl.used) <= m.limits.Idle
		sl.mu.Unlock()
	}
	if inUse {
		h := maphash.String(m.seed, sessionOf(sl.key))
		if _, ok := m.dropped[h]; !ok {
			if len(m.dropped) >= m.maxDropped() {
				m.forgetIdle(now.Add(-m.limits.Idle))
			}
			if len(m.dropped) >= m.maxDropped() {
				return fmt.Errorf("the server holds %d sessions in use (--max-sessions) and has dropped %d more still in use, as many as it remembers: a new session is refused until sessions end or go idle (--idle); raise --max-sessions", m.lru.Len(), len(m.dropped))
			}
		}
		m.dropped[h] = now
	}
	m.lru.Remove(el)
	delete(m.byKey, sl.key)
	return nil
}

// slot returns the key's slot, made and put first; the least recently
// used slot goes when there are too many.
func (m *Memory) slot(key string) (*slot, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, errClosed
	}
	now := m.now()
	if el, ok := m.byKey[key]; ok {
		sl := el.Value.(*slot)
		m.lru.MoveToFront(el)
		return sl, nil
	}
	if err := m.droppedErr(key, now); err != nil {
		return nil, err
	}
	for m.lru.Len() >= m.limits.MaxSessions {
		if err := m.drop(m.lru.Back(), now); err != nil {
			return nil, err
		}
	}
	sl := &slot{key: key, s: &rules.Session{}, used: now}
	m.byKey[key] = m.lru.PushFront(sl)
	return sl, nil
}

// Update implements Store.
func (m *Memory) Update(key string, fn func(s *rules.Session) error) (*rules.CorruptLinesError, error) {
	sl, err := m.slot(key)
	if err != nil {
		return nil, err
	}
	sl.mu.Lock()
	defer sl.mu.Unlock()
	now := m.now()
	if now.Sub(sl.used) > m.limits.Idle {
		sl.s = &rules.Session{}
	}
	sl.used = now
	if n := sl.s.Len(); n >= m.limits.MaxCalls {
		return nil, &FullError{Calls: n}
	}
	// fn works on a copy only when it could fail half way; the engine's
	// updates of a session are whole, so the session itself is used.
	return nil, fn(sl.s)
}

// View implements Store.
func (m *Memory) View(key string) (*rules.Session, error) {
	m.mu.Lock()
	el, ok := m.byKey[key]
	err := m.droppedErr(key, m.now())
	m.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if !ok {
		return &rules.Session{}, nil
	}
	sl := el.Value.(*slot)
	sl.mu.Lock()
	defer sl.mu.Unlock()
	if m.now().Sub(sl.used) > m.limits.Idle {
		return &rules.Session{}, nil
	}
	return clone(sl.s)
}

// Remove implements Store.
func (m *Memory) Remove(session string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for k, el := range m.byKey {
		if sessionOf(k) == session {
			m.lru.Remove(el)
			delete(m.byKey, k)
		}
	}
	// The runtime ended it: the id may start again.
	delete(m.dropped, maphash.String(m.seed, session))
	return nil
}

// Prune implements Store.
func (m *Memory) Prune(age time.Duration) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	cutoff := m.now().Add(-age)
	m.forgetIdle(cutoff)
	n := 0
	for el := m.lru.Back(); el != nil; {
		sl := el.Value.(*slot)
		prev := el.Prev()
		if sl.mu.TryLock() {
			if sl.used.Before(cutoff) {
				m.lru.Remove(el)
				delete(m.byKey, sl.key)
				n++
			}
			sl.mu.Unlock()
		}
		el = prev
	}
	return n, nil
}

// Count implements Store.
func (m *Memory) Count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.lru.Len()
}

// Close implements Store.
func (m *Memory) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	return nil
}
