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

// Raise, started while the start-up percent holds, leaves the percent to
// the finalizer: lint used to restore the 400 it found after its rules,
// when the finalizer had set 100 back meanwhile, so --new-from-rev's
// second evaluation and the rest of the process ran at 400.
func TestRaiseDuringStart(t *testing.T) {
	prev := debug.SetGCPercent(Percent)
	defer debug.SetGCPercent(prev)
	restore := Raise(400)
	if p := debug.SetGCPercent(100); p != Percent { // the finalizer, while the rules run
		t.Fatalf("GC percent %d while the work runs, want %d", p, Percent)
	}
	restore()
	if p := debug.SetGCPercent(prev); p != 100 {
		t.Errorf("GC percent %d after the work, want the 100 the finalizer set back meanwhile", p)
	}
	debug.SetGCPercent(50)
	restore = Raise(400)
	if p := percent(); p != 400 {
		t.Errorf("GC percent %d while the work runs from 50, want 400", p)
	}
	restore()
	if p := percent(); p != 50 {
		t.Errorf("GC percent %d after the work, want the 50 it found", p)
	}
	debug.SetGCPercent(-1)
	restore = Raise(400)
	if p := percent(); p != -1 {
		t.Errorf("GC percent %d with GOGC=off, want -1 (off is the user's)", p)
	}
	restore()
}
