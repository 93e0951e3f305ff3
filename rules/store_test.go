package rules_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/rules"
)

func TestStoreUpdate(t *testing.T) {
	st := &rules.Store{Dir: filepath.Join(t.TempDir(), "state")}
	e := mustCompile(t, rule("every_third", "*", rules.Remind, nil))
	e3 := e.Profile()
	e3.Rules[0].Cooldown = 2
	e, err := rules.Compile(e3)
	if err != nil {
		t.Fatal(err)
	}
	var fired []bool
	for i := range 6 {
		rep, err := st.Update("sess-1", func(s *rules.Session) error {
			c := rules.Call{Tool: "Read", Args: map[string]any{"file_path": fmt.Sprint("/f", i)}}
			v := e.Evaluate(rules.Post, c, s)
			fired = append(fired, len(v.Fired) == 1)
			s.Record(c)
			return nil
		})
		if err != nil || rep != nil {
			t.Fatal(rep, err)
		}
	}
	// The cooldown survives across processes (here, updates).
	if got, want := fmt.Sprint(fired), "[true false false true false false]"; got != want {
		t.Errorf("fired %s, want %s", got, want)
	}
	data, err := os.ReadFile(filepath.Join(st.Dir, "sess-1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n != 8 { // 6 calls, 2 fired lines
		t.Errorf("file has %d lines:\n%s", n, data)
	}

	// An error from fn saves nothing.
	_, err = st.Update("sess-1", func(s *rules.Session) error {
		s.Record(rules.Call{Tool: "Bash"})
		return errors.New("boom")
	})
	if err == nil || err.Error() != "boom" {
		t.Errorf("err = %v", err)
	}
	st.Update("sess-1", func(s *rules.Session) error {
		if s.Len() != 6 {
			t.Errorf("session has %d calls after a failed update, want 6", s.Len())
		}
		if c, _ := s.Call(5); c.Args["file_path"] != "/f5" {
			t.Errorf("call 5 = %+v", c)
		}
		return nil
	})
}

func TestStoreRepairsTornLine(t *testing.T) {
	st := &rules.Store{Dir: t.TempDir()}
	st.Update("s", func(s *rules.Session) error {
		s.Record(rules.Call{Tool: "Read", Args: map[string]any{"file_path": "/a"}})
		s.Record(rules.Call{Tool: "Read", Args: map[string]any{"file_path": "/b"}})
		return nil
	})
	path := filepath.Join(st.Dir, "s.jsonl")
	data, _ := os.ReadFile(path)
	// A crash tore the last line.
	os.WriteFile(path, data[:len(data)-10], 0o600)
	rep, err := st.Update("s", func(s *rules.Session) error {
		s.Record(rules.Call{Tool: "Read", Args: map[string]any{"file_path": "/c"}})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep == nil || len(rep.Lines) != 1 || rep.Lines[0].Line != 2 {
		t.Fatalf("repaired = %v", rep)
	}
	rep, err = st.Update("s", func(s *rules.Session) error {
		if s.Len() != 2 {
			t.Errorf("session has %d calls, want 2 (/a and /c)", s.Len())
		}
		return nil
	})
	if rep != nil || err != nil {
		t.Errorf("file still damaged after repair: %v %v", rep, err)
	}
}

func TestStoreConcurrent(t *testing.T) {
	st := &rules.Store{Dir: t.TempDir()}
	const workers, each = 8, 25
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				_, err := st.Update("shared", func(s *rules.Session) error {
					s.Record(rules.Call{Tool: "Bash", Args: map[string]any{"command": fmt.Sprintf("echo %d %d", w, i)}})
					s.MarkFired(fmt.Sprint("w", w), s.Len()-1)
					return nil
				})
				if err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	rep, err := st.Update("shared", func(s *rules.Session) error {
		if s.Len() != workers*each {
			t.Errorf("session has %d calls, want %d", s.Len(), workers*each)
		}
		return nil
	})
	if rep != nil || err != nil {
		t.Errorf("%v %v", rep, err)
	}
}

func TestStoreKeys(t *testing.T) {
	dir := t.TempDir()
	st := &rules.Store{Dir: dir}
	for _, key := range []string{"../../etc/passwd", "a/b", ".hidden", strings.Repeat("k", 300)} {
		if _, err := st.Update(key, func(s *rules.Session) error {
			s.Record(rules.Call{Tool: "x"})
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "h-") || strings.ContainsAny(e.Name(), "/\\") {
			t.Errorf("unexpected file %s", e.Name())
		}
	}
	if len(entries) != 8 {
		t.Errorf("%d files, want 8 (a .jsonl and a .lock per key)", len(entries))
	}
	if _, err := st.Update("", func(*rules.Session) error { return nil }); err == nil {
		t.Error("empty key accepted")
	}
}

// TestPruneOnlyOwnDirectory checks that Prune deletes nothing in a folder
// charter did not make (--state-dir may name one with other files), and in
// its own deletes only idle sessions, their lock files and crash leftovers.
func TestPruneOnlyOwnDirectory(t *testing.T) {
	long := time.Now().Add(-30 * 24 * time.Hour)
	write := func(dir string, names ...string) {
		for _, n := range names {
			p := filepath.Join(dir, n)
			if err := os.WriteFile(p, []byte("data"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(p, long, long); err != nil {
				t.Fatal(err)
			}
		}
	}
	left := func(dir string) []string {
		var out []string
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if e.Name() != "new.lock" { // kept or not, as the platform locks
				out = append(out, e.Name())
			}
		}
		return out
	}
	foreign := []string{"Cargo.lock", "events.jsonl", "build.tmp.log", "README.md"}

	shared := t.TempDir()
	write(shared, foreign...)
	if n, err := (&rules.Store{Dir: shared}).Prune(7 * 24 * time.Hour); n != 0 || err != nil {
		t.Errorf("Prune in a folder not charter's = %d, %v; want 0, nil", n, err)
	}
	if diff := cmp.Diff([]string{"Cargo.lock", "README.md", "build.tmp.log", "events.jsonl"}, left(shared)); diff != "" {
		t.Errorf("files left (-want +got):\n%s", diff)
	}

	own := filepath.Join(t.TempDir(), "sessions")
	st := &rules.Store{Dir: own}
	if _, err := st.Update("new", func(s *rules.Session) error { s.Record(rules.Call{Tool: "Read"}); return nil }); err != nil {
		t.Fatal(err)
	}
	write(own, "idle.jsonl", "idle.lock", "gone.lock", "x.jsonl.tmp123", "notes.txt")
	if n, err := st.Prune(7 * 24 * time.Hour); n != 1 || err != nil {
		t.Errorf("Prune = %d, %v; want 1 session removed", n, err)
	}
	if diff := cmp.Diff([]string{rules.OwnMarker, "new.jsonl", "notes.txt"}, left(own)); diff != "" {
		t.Errorf("files left in charter's folder (-want +got):\n%s", diff)
	}
}
