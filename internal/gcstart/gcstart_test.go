package gcstart

import (
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// The start-up percent holds while the live heap is small, and the default
// comes back once it passes Live.
// It runs in a process of its own, started here without GOGC and
// GOMEMLIMIT (and within For of its start, whatever ran before).
func TestStartThenDefault(t *testing.T) {
	if os.Getenv(childEnv) != "start" {
		inChild(t, "start", "^TestStartThenDefault$")
		return
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

// A GOGC or GOMEMLIMIT the user set is theirs: the package leaves the
// collector alone.
func TestUserSetting(t *testing.T) {
	switch os.Getenv(childEnv) {
	case "":
		inChild(t, "gogc", "^TestUserSetting$", "GOGC=250")
		inChild(t, "memlimit", "^TestUserSetting$", "GOMEMLIMIT=1GiB")
	case "gogc":
		if p := percent(); p != 250 {
			t.Fatalf("GC percent %d with GOGC=250, want 250", p)
		}
	case "memlimit":
		if p := percent(); p != 100 {
			t.Fatalf("GC percent %d with GOMEMLIMIT set, want the default 100", p)
		}
	}
}

const childEnv = "GCSTART_TEST_CHILD"

// inChild runs the test binary's test run in a new process, with the GC
// environment of env alone (GOGC and GOMEMLIMIT removed first), and
// fails when it fails.
func inChild(t *testing.T, child, run string, env ...string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run="+run, "-test.count=1", "-test.v")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOGC=") && !strings.HasPrefix(kv, "GOMEMLIMIT=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(append(cmd.Env, childEnv+"="+child), env...)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS") {
		t.Fatalf("%s: %v\n%s", child, err, out)
	}
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
