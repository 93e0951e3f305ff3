package par

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
)

func TestEach(t *testing.T) {
	for _, tt := range []struct{ n, workers int }{{0, 0}, {1, 4}, {5, 1}, {100, 0}, {100, 3}, {3, 100}} {
		seen := make([]atomic.Int32, tt.n)
		Each(tt.n, tt.workers, func(i int) { seen[i].Add(1) })
		for i := range seen {
			if got := seen[i].Load(); got != 1 {
				t.Errorf("Each(%d, %d): f(%d) called %d times, want once", tt.n, tt.workers, i, got)
			}
		}
	}
}

// TestEachPanic: a call that panics on a worker goroutine panics in the
// caller, once every other call has run, so that charter's recover (which
// prints through the credential detector and answers the hook) sees it;
// on the worker, Go's runtime would print it to the process's standard
// error directly and end the process.
func TestEachPanic(t *testing.T) {
	var calls atomic.Int32
	defer func() {
		r := recover()
		if r == nil {
			t.Fatal("Each returned; want the call's panic")
		}
		if s := fmt.Sprint(r); !strings.HasPrefix(s, "boom 5") || !strings.Contains(s, "goroutine") {
			t.Errorf("panic %q, want the call's value and the worker's stack", s)
		}
		if got := calls.Load(); got != 50 {
			t.Errorf("%d calls ran, want all 50", got)
		}
	}()
	Each(50, 4, func(i int) {
		calls.Add(1)
		if i == 5 {
			panic(fmt.Sprintf("boom %d", i))
		}
	})
}
