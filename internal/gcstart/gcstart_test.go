package gcstart

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// The start-up percent holds while the live heap is small, and the default
// comes back once it passes Live.
func TestStartThenDefault(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT is set: the package leaves the GC alone, as it should")
	}
	runtime.GC()
	runtime.GC()
	if p := percent(); p != Percent {
		t.Fatalf("GC percent %d after two collections of a small heap, want %d", p, Percent)
	}
	live := make([][]byte, 0, 64)
	for range 32 {
		live = append(live, make([]byte, 1<<20)) // 32 MB live, past Live
	}
	deadline := time.Now().Add(10 * time.Second)
	for percent() != 100 {
		if time.Now().After(deadline) {
			t.Fatalf("GC percent still %d with %d MB live", percent(), len(live))
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	runtime.KeepAlive(live)
	// As init left it, for -count.
	live = nil
	runtime.GC()
	debug.SetGCPercent(Percent)
	arm(time.Now())
}

func percent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}
