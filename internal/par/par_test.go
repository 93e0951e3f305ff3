package par

import (
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
