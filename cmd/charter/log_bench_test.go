package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkLogRepo runs charter log a196 (or $CHARTER_BENCH_AGENT) in
// process on the repository $CHARTER_BENCH_REPO that
// scripts/bench-history.sh makes: 5,000 commits, 1,001 of them change the
// config root. docs/performance.md holds the target: within 10 times the
// time of git log -- config.
func BenchmarkLogRepo(b *testing.B) {
	dir := os.Getenv("CHARTER_BENCH_REPO")
	if dir == "" {
		b.Skip("set CHARTER_BENCH_REPO to a repository made by scripts/bench-history.sh")
	}
	agent := os.Getenv("CHARTER_BENCH_AGENT")
	if agent == "" {
		agent = "a196"
	}
	args := []string{"-C", filepath.Join(dir, "config"), "log", agent}
	for b.Loop() {
		if code := run(args, io.Discard, io.Discard); code != 0 {
			b.Fatalf("charter log %s exited with %d", agent, code)
		}
	}
}
