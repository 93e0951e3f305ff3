package sessions

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/charter-dev/charter/internal/testkit/redistest"
	"github.com/charter-dev/charter/rules"
)

func record(t *testing.T, st Store, key string, n int) {
	t.Helper()
	for i := range n {
		_, err := st.Update(key, func(s *rules.Session) error {
			s.Record(rules.Call{Tool: "read_file", Args: map[string]any{"path": string(rune('a' + i%26))}})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func length(t *testing.T, st Store, key string) int {
	t.Helper()
	s, err := st.View(key)
	if err != nil {
		t.Fatal(err)
	}
	return s.Len()
}

func TestMemoryLimits(t *testing.T) {
	now := time.Unix(0, 0)
	m := NewMemory(Limits{MaxCalls: 5, MaxSessions: 2, Idle: time.Minute})
	m.now = func() time.Time { return now }
	record(t, m, "a", 5)
	_, err := m.Update("a", func(*rules.Session) error { return nil })
	if _, ok := err.(*FullError); !ok {
		t.Errorf("a full session: %v", err)
	}
	record(t, m, "b", 1)
	record(t, m, "c", 1) // a goes: used least recently
	if _, err := m.View("a"); m.Count() != 2 || length(t, m, "c") != 1 || err == nil {
		t.Errorf("eviction: %d sessions, a read: %v", m.Count(), err)
	}
	now = now.Add(2 * time.Minute)
	if length(t, m, "b") != 0 {
		t.Error("an idle session is still read")
	}
	if n, _ := m.Prune(time.Minute); n != 2 || m.Count() != 0 {
		t.Errorf("prune dropped %d, %d left", n, m.Count())
	}
	record(t, m, rules.AgentKey("s", "x"), 1)
	record(t, m, rules.AgentKey("s", "y"), 1)
	m.Remove("s")
	if m.Count() != 0 {
		t.Errorf("remove left %d", m.Count())
	}
}

// A session dropped to make room for others (--max-sessions) is not
// judged again as a new one: its calls and views fail, with the reason,
// until the runtime ends it. Before, whoever could open sessions (10,000
// with one id each) emptied every other session's history, unseen: the
// rules that count or look back (read_before_edit, session.count,
// cooldowns) started again for sessions under way, as a session that
// holds --max-calls, whose calls are denied for that reason, would not.
func TestMemoryDroppedSessionRefused(t *testing.T) {
	m := NewMemory(Limits{MaxSessions: 3})
	victim := rules.AgentKey("victim", "coder")
	record(t, m, victim, 4)
	for i := range 3 {
		record(t, m, "flood-"+string(rune('a'+i)), 1)
	}
	_, err := m.Update(victim, func(s *rules.Session) error {
		t.Errorf("the dropped session was judged anew, with %d calls", s.Len())
		return nil
	})
	var de *DroppedError
	if !errors.As(err, &de) || !strings.Contains(err.Error(), "--max-sessions") {
		t.Errorf("update of a dropped session: %v, want a DroppedError", err)
	}
	if _, err := m.View(victim); !errors.As(err, &de) {
		t.Errorf("view of a dropped session: %v, want a DroppedError", err)
	}
	// Another agent of the dropped session was not kept either.
	if _, err := m.View(rules.AgentKey("victim", "tester")); !errors.As(err, &de) {
		t.Errorf("view of another agent of a dropped session: %v", err)
	}
	// The runtime ends it (SessionEnd): the id may start again.
	m.Remove("victim")
	record(t, m, victim, 1)
	if length(t, m, victim) != 1 {
		t.Error("a session ended after it was dropped does not start again")
	}
	// Sessions idle past --idle go without a trace: they start again empty,
	// as they would have anyway.
	now := time.Unix(0, 0)
	m = NewMemory(Limits{MaxSessions: 1, Idle: time.Minute})
	m.now = func() time.Time { return now }
	record(t, m, "old", 2)
	now = now.Add(2 * time.Minute)
	record(t, m, "new", 1)
	if length(t, m, "old") != 0 {
		t.Error("an idle session dropped for room is refused")
	}
}

// TestMemoryDroppedRemembered: the store remembered at most
// max(1024, 4 x --max-sessions) dropped sessions and forgot the oldest
// past that, so whoever opened that many more sessions made a dropped
// session's next call start again empty: the reset the refusal is for.
// Past the bound a new session is refused instead, and a mark goes only
// when its session has been idle past --idle.
func TestMemoryDroppedRemembered(t *testing.T) {
	now := time.Unix(0, 0)
	m := NewMemory(Limits{MaxSessions: 1, Idle: time.Hour})
	m.now = func() time.Time { return now }
	victim := rules.AgentKey("victim", "coder")
	record(t, m, victim, 3)
	refused := 0
	for i := range m.maxDropped() + 10 {
		_, err := m.Update(fmt.Sprintf("flood-%d", i), func(s *rules.Session) error { return nil })
		if err != nil {
			refused++
		}
	}
	if refused == 0 {
		t.Error("no new session was refused past the bound of dropped sessions")
	}
	var de *DroppedError
	if _, err := m.Update(victim, func(s *rules.Session) error {
		t.Errorf("the dropped session was judged anew, with %d calls", s.Len())
		return nil
	}); !errors.As(err, &de) {
		t.Errorf("update of the dropped session after %d more: %v, want a DroppedError", m.maxDropped(), err)
	}
	// Idle past --idle, the victim included, every session would start
	// again empty anyway: a new one is made.
	now = now.Add(2 * time.Hour)
	if _, err := m.Update("late", func(s *rules.Session) error { return nil }); err != nil {
		t.Errorf("a new session once the others went idle: %v", err)
	}
	if n, _ := m.Prune(time.Hour); n != 0 || len(m.dropped) != 0 {
		t.Errorf("marks of sessions idle past --idle are kept: %d", len(m.dropped))
	}
}

func TestCheckID(t *testing.T) {
	for id, ok := range map[string]bool{"s1": true, "2cb87eba-aa": true, "a/b": false, "a..b": false, "..": false, "": false, strings.Repeat("x", 129): false, "a b": false} {
		if (CheckID(id) == nil) != ok {
			t.Errorf("CheckID(%q) = %v", id, CheckID(id))
		}
	}
}

func TestMemoryConcurrent(t *testing.T) {
	m := NewMemory(Limits{})
	concurrent(t, m)
}

func concurrent(t *testing.T, st Store) {
	var wg sync.WaitGroup
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			record(t, st, "hot", 10)
		}()
	}
	wg.Wait()
	if n := length(t, st, "hot"); n != 100 {
		t.Errorf("%d calls kept of 100", n)
	}
}

// Two clients on one Redis, writing one session at once: no call lost.
func TestRedis(t *testing.T) {
	rd := redistest.Start(t)
	a, err := OpenRedis(rd.URL, Limits{MaxCalls: 1000}, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := OpenRedis(rd.URL, Limits{MaxCalls: 1000}, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var wg sync.WaitGroup
	for _, st := range []Store{a, b, a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			record(t, st, "hot", 25)
		}()
	}
	wg.Wait()
	if n := length(t, b, "hot"); n != 100 {
		t.Errorf("%d calls kept of 100", n)
	}
	record(t, a, rules.AgentKey("s", "x"), 1)
	if err := b.Remove("s"); err != nil || length(t, a, rules.AgentKey("s", "x")) != 0 {
		t.Errorf("remove: %v", err)
	}
	// Redis down: an error at once, that names it.
	rd.Stop()
	start := time.Now()
	_, err = a.Update("hot", func(*rules.Session) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "Redis") || time.Since(start) > 2*time.Second {
		t.Errorf("Redis down: %v after %v", err, time.Since(start))
	}
	if _, err := OpenRedis(rd.URL, Limits{}, time.Second); err == nil {
		t.Error("OpenRedis reached a stopped server")
	}
}

// A Redis that evicts keys under memory pressure (maxmemory-policy
// allkeys-lru, volatile-ttl, ...; sessions have a TTL, so volatile-*
// evicts them too) drops sessions unseen, and their next calls are judged
// from nothing: whoever can open many sessions resets the others'
// history. OpenRedis refuses such a server, naming the setting.
func TestRedisEvictionRefused(t *testing.T) {
	rd := redistest.Start(t)
	c := redis.NewClient(&redis.Options{Network: "unix", Addr: rd.Socket})
	defer c.Close()
	for _, policy := range []string{"allkeys-lru", "volatile-lru", "volatile-ttl", "allkeys-random"} {
		if err := c.ConfigSet(context.Background(), "maxmemory-policy", policy).Err(); err != nil {
			t.Fatal(err)
		}
		st, err := OpenRedis(rd.URL, Limits{}, time.Second)
		if err == nil {
			st.Close()
			t.Errorf("maxmemory-policy %s: OpenRedis accepted it", policy)
		} else if !strings.Contains(err.Error(), "noeviction") {
			t.Errorf("maxmemory-policy %s: %v, want the setting named", policy, err)
		}
	}
	if err := c.ConfigSet(context.Background(), "maxmemory-policy", "noeviction").Err(); err != nil {
		t.Fatal(err)
	}
	st, err := OpenRedis(rd.URL, Limits{}, time.Second)
	if err != nil {
		t.Fatalf("noeviction: %v", err)
	}
	st.Close()
}
