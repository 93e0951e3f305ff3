package history_test

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/charter-dev/charter/internal/repo/history"
	"github.com/charter-dev/charter/internal/repo/source"
	"github.com/charter-dev/charter/internal/repo/source/sourcetest"
	"github.com/charter-dev/charter/internal/testkit/realtool"
)

// logHeap walks, as charter log does, a repository made by
// scripts/bench-history.sh with a commit-graph file, and returns the most
// live heap (after a collection, every 25 commits the walk lists) and
// the most commits the walk itself remembered (history.WalkPruned).
func logHeap(t testing.TB, commits string) (heap uint64, walked int) {
	t.Helper()
	dir := benchRepo(t, commits)
	cmd := exec.Command("git", "commit-graph", "write", "--reachable")
	cmd.Dir = dir
	cmd.Env = sourcetest.Env(sourcetest.Epoch)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git commit-graph write: %v\n%s", err, out)
	}
	repo, err := source.Open(filepath.Join(dir, "config"))
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	walked, err = history.WalkPruned(repo, "HEAD", "config", func(*history.Entry) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	var ms runtime.MemStats
	h, err := history.AgentVersions(repo, "HEAD", "a196", history.AgentOptions{Progress: func(n int) {
		if n%25 == 0 {
			runtime.GC()
			runtime.ReadMemStats(&ms)
			heap = max(heap, ms.HeapAlloc)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Versions) < 5 {
		t.Fatalf("%d versions: the history tests little", len(h.Versions))
	}
	return heap, walked
}

// TestLogMemory: what charter log keeps does not grow with the history.
// On generated histories of 1,500 and 6,000 commits (a fifth change the
// config root of 200 agents; merges every 100), the most live heap while
// AgentVersions walks differs by less than 4 MiB, and with a commit-graph
// file the walk remembers a few dozen commits, not all of them. No time
// is measured; the heap is measured after a collection, so it counts what
// is kept, not garbage.
//
// The live heap is not the same at both sizes: the caches fill to their
// bounds, and the CUE context that evaluations share grows until its
// loader starts a new one (load.maxLoaderFiles), which the shorter walk
// does not reach; the difference measured is about 1 MiB. Before the
// walk kept nothing per commit (go-git's object cache, the list of every
// entry, a snapshot per config tree), it was 13.5 MiB (9.3 to 22.5 MiB):
// this test catches that, not a few bytes a commit.
func TestLogMemory(t *testing.T) {
	realtool.Long(t, "a bound on memory needs thousands of commits")
	small, walkedSmall := logHeap(t, "1500")
	large, walkedLarge := logHeap(t, "6000")
	t.Logf("most live heap: %d KiB at 1,500 commits, %d KiB at 6,000; the walk held %d and %d commits",
		small>>10, large>>10, walkedSmall, walkedLarge)
	if large > small+4<<20 {
		t.Errorf("the live heap grew from %d KiB at 1,500 commits to %d KiB at 6,000: something is kept per commit", small>>10, large>>10)
	}
	if walkedLarge > 64 {
		t.Errorf("the walk held %d commits of 6,000", walkedLarge)
	}
}
