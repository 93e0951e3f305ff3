// Package gcstart sets the garbage collector for a charter process's start
// (issue 30), in its init: import it for that alone.
//
// With the default GOGC of 100 the collector's first heap goal is 4 MB,
// which package initialisation (2.5 MB) and a short command's own work
// pass at once: `charter lint` on a small repository collected four times,
// a fifth of its CPU. Until the live heap passes Live, or the process has
// run for For, the GC percent is Percent (a heap goal of at least 16 MB);
// then back to the default, so that a large evaluation or a long-running
// command (serve, lsp) has the memory it always had. A GOGC or GOMEMLIMIT
// the user set is theirs.
//
// Go initialises it before main runs, while the heap is still under the
// first goal (package initialisation stays under it: TestInitBudget), so
// the first collection comes at 16 MB.
package gcstart

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// The start-up setting.
const (
	Percent = 400
	Live    = 16 << 20
	For     = 2 * time.Second
)

func init() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(Percent)
	arm(time.Now())
}

// sentinel holds a pointer, so that it is not one of the tiny allocations
// a finalizer may never run for.
type sentinel struct{ _ *int }

// arm sets a finalizer that runs after the next collection: the moment to
// look at the live heap and the time.
func arm(began time.Time) {
	runtime.SetFinalizer(&sentinel{}, func(*sentinel) {
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(s)
		if s[0].Value.Kind() == metrics.KindUint64 && s[0].Value.Uint64() < Live && time.Since(began) < For {
			arm(began)
			return
		}
		// Back to the default, unless a command set its own since (Raise
		// leaves the start-up percent to this).
		if prev := debug.SetGCPercent(100); prev != Percent {
			debug.SetGCPercent(prev)
		}
	})
}

// Raise raises the GC percent to p for a stretch of work whose live heap
// is large and whose garbage is small (lint's rules over an evaluation),
// and returns what puts it back. It changes nothing when the percent is
// already p or more, or off (GOGC=off, or the start-up percent, which
// the finalizer above sets back itself: restoring the 400 found here
// after the finalizer set 100 would keep 400 for the rest of the process).
// The percent is read without being set, so no collection starts at a
// percent that was never meant.
func Raise(p int) (restore func()) {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return func() {}
	}
	// GOGC=off reads as -1 stored in a uint64.
	if gc := int(int64(s[0].Value.Uint64())); gc >= 0 && gc < p {
		debug.SetGCPercent(p)
		return func() { debug.SetGCPercent(gc) }
	}
	return func() {}
}
