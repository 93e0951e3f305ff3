//go:build unix

package lsp

import (
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/charter-dev/charter/internal/testkit/gen"
)

// BenchmarkEdit2000 times what an author waits for in the 2,000-agent
// generated repository: from an edit of one agent's buffer to its fresh
// diagnostics (debounce excluded), on the fast path (fast.go) that a
// repository this size takes; the full evaluation that follows a pause is
// kept out of the loop. BenchmarkEdit2000Full times the full evaluation.
// Run them with -benchtime=3x: the set-up evaluates the whole repository.
func BenchmarkEdit2000(b *testing.B) {
	benchEdit(b, 2000, func(o *Options) { o.FastAfter, o.FullDelay = 0, time.Hour }) // the server's default FastAfter
}

// BenchmarkEdit10000 is BenchmarkEdit2000 at 10,000 agents: what an edit
// costs that grows with the repository shows as the difference.
func BenchmarkEdit10000(b *testing.B) {
	benchEdit(b, 10000, func(o *Options) { o.FastAfter, o.FullDelay = 0, time.Hour })
}

// BenchmarkEdit2000Full is BenchmarkEdit2000 with every edit evaluated in
// full; metrics split the time between evaluation through package
// revision (load, validate, compile) and lint.
func BenchmarkEdit2000Full(b *testing.B) {
	benchEdit(b, 2000, func(o *Options) { o.FastAfter = time.Hour })
}

func benchEdit(b *testing.B, n int, opt func(*Options)) {
	root := b.TempDir()
	if err := gen.Write(root, n); err != nil {
		b.Fatal(err)
	}
	t := &testing.T{}
	c := start(t, root, func(o *Options) { o.Debounce = time.Millisecond }, opt)
	c.t = t
	c.wait()
	const rel = "agents/a0001.cue"
	src, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		b.Fatal(err)
	}
	c.open(rel, string(src))
	c.wait()
	var eval, lint time.Duration
	if p := os.Getenv("CHARTER_BENCH_CPUPROFILE"); p != "" {
		// The edits alone, without the set-up's full evaluations.
		f, err := os.Create(p)
		if err != nil {
			b.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			b.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := range b.N {
		// A new budget each time: the buffer changes, the repository
		// still validates.
		edited := strings.Replace(string(src), "budget_limit:", "budget_limit: "+string(rune('1'+i%9))+" +", 1)
		c.change(rel, edited)
		c.wait()
		c.srv.mu.Lock()
		eval += c.srv.snap.evaluated
		lint += c.srv.snap.linted
		if c.srv.snap.cfg == nil {
			b.Fatalf("edit %d did not validate: %v", i, c.srv.snap.diags[rel])
		}
		c.srv.mu.Unlock()
	}
	// The machine may be shared: CPU time says what an edit costs.
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
	if c.srv.fastRuns.Load() == 0 {
		b.ReportMetric(float64(eval.Milliseconds())/float64(b.N), "eval-ms/op")
		b.ReportMetric(float64(lint.Milliseconds())/float64(b.N), "lint-ms/op")
	}
}

// cpuTime is the CPU time the process used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkEditDevTeam is BenchmarkEdit2000 on examples/dev-team, a
// repository of the size most teams have.
func BenchmarkEditDevTeam(b *testing.B) {
	root := copyDir(b, "../../../examples/dev-team")
	t := &testing.T{}
	c := start(t, root, func(o *Options) { o.Debounce = time.Millisecond })
	c.t = t
	c.wait()
	src, err := os.ReadFile(filepath.Join(root, marco))
	if err != nil {
		b.Fatal(err)
	}
	c.open(marco, string(src))
	c.wait()
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := range b.N {
		c.change(marco, strings.Replace(string(src), "budget_limit: 1.00", "budget_limit: "+string(rune('1'+i%4)), 1))
		c.wait()
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
}
