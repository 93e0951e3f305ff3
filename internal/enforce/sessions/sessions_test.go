package sessions

import (
	"strings"
	"sync"
	"testing"
	"time"

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
	if m.Count() != 2 || length(t, m, "a") != 0 || length(t, m, "c") != 1 {
		t.Errorf("eviction: %d sessions, a %d", m.Count(), length(t, m, "a"))
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
