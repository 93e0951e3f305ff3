package history

import "testing"

// TestRecent: the cache keeps at least the n entries used last, and at
// most 2n; atLeast raises n.
func TestRecent(t *testing.T) {
	r := newRecent[int, int](10)
	for i := range 100 {
		r.put(i, i)
		// Entry 0 is used all along: it is never dropped.
		if v, ok := r.get(0); !ok || v != 0 {
			t.Fatalf("after %d entries, entry 0 was dropped", i+1)
		}
		if r.len() > 20 {
			t.Fatalf("after %d entries, the cache holds %d, more than 20", i+1, r.len())
		}
	}
	for i := 90; i < 100; i++ {
		if _, ok := r.get(i); !ok {
			t.Errorf("entry %d, one of the last 10, was dropped", i)
		}
	}
	if _, ok := r.get(1); ok {
		t.Errorf("entry 1, used once long ago, is still held")
	}
	r.atLeast(50)
	for i := 100; i < 150; i++ {
		r.put(i, i)
	}
	for i := 100; i < 150; i++ {
		if _, ok := r.get(i); !ok {
			t.Errorf("after atLeast(50), entry %d, one of the last 50, was dropped", i)
		}
	}
}
