package history_test

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/charter-dev/charter/internal/repo/history"
	"github.com/charter-dev/charter/internal/repo/source"
	"github.com/charter-dev/charter/internal/repo/source/sourcetest"
)

// benchRepo makes a repository with scripts/bench-history.sh: commits on
// main, a fifth of them changing config/ (200 agent files), merges every
// 100 commits.
func benchRepo(b testing.TB, commits string) string {
	b.Helper()
	sourcetest.NeedGit(b)
	if _, err := exec.LookPath("bash"); err != nil || runtime.GOOS == "windows" {
		b.Skip("needs bash")
	}
	dir := filepath.Join(b.TempDir(), "repo")
	cmd := exec.Command("bash", filepath.Join("..", "..", "..", "scripts", "bench-history.sh"), dir)
	cmd.Env = append(os.Environ(), "COMMITS="+commits, "GENERATE_ONLY=1", "COMMIT_GRAPH=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("bench-history.sh: %v\n%s", err, out)
	}
	return dir
}

func benchWalk(b *testing.B, dir string, graph bool) {
	b.Helper()
	want := 0
	for i := 0; b.Loop(); i++ {
		repo, err := source.Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		if !graph {
			repo.DisableCommitGraph()
		}
		n := 0
		err = history.Walk(repo, "main", "config", func(*history.Entry) error { n++; return nil })
		repo.Close()
		if err != nil {
			b.Fatal(err)
		}
		if i == 0 {
			want = n
		} else if n != want {
			b.Fatalf("walk %d listed %d commits, the first %d", i, n, want)
		}
	}
	b.ReportMetric(float64(want), "versions")
}

func benchGitLog(b *testing.B, dir string) {
	for b.Loop() {
		cmd := exec.Command("git", "log", "--format=%H", "main", "--", "config")
		cmd.Dir = dir
		cmd.Env = sourcetest.Env(sourcetest.Epoch)
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
}

func writeGraph(b *testing.B, dir string) {
	b.Helper()
	cmd := exec.Command("git", "commit-graph", "write", "--reachable")
	cmd.Dir = dir
	cmd.Env = sourcetest.Env(sourcetest.Epoch)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("git commit-graph write: %v\n%s", err, out)
	}
}

// BenchmarkWalk walks a generated 1,000-commit history (about 200
// versions) with and without a commit-graph file, beside git log.
func BenchmarkWalk(b *testing.B) {
	dir := benchRepo(b, "1000")
	b.Run("no-commit-graph", func(b *testing.B) { benchWalk(b, dir, false) })
	b.Run("git-log", func(b *testing.B) { benchGitLog(b, dir) })
	writeGraph(b, dir)
	b.Run("commit-graph", func(b *testing.B) { benchWalk(b, dir, true) })
	b.Run("git-log-commit-graph", func(b *testing.B) { benchGitLog(b, dir) })
}

// BenchmarkWalkRepo walks the repository $CHARTER_BENCH_REPO made by
// scripts/bench-history.sh (which runs it).
func BenchmarkWalkRepo(b *testing.B) {
	dir := os.Getenv("CHARTER_BENCH_REPO")
	if dir == "" {
		b.Skip("set CHARTER_BENCH_REPO to a repository made by scripts/bench-history.sh")
	}
	b.Run("no-commit-graph", func(b *testing.B) { benchWalk(b, dir, false) })
	b.Run("commit-graph", func(b *testing.B) { benchWalk(b, dir, true) })
}

// BenchmarkIndexRepo opens $CHARTER_BENCH_REPO and reads every staged
// file of config/ from the index, as a pre-commit hook would.
func BenchmarkIndexRepo(b *testing.B) {
	dir := os.Getenv("CHARTER_BENCH_REPO")
	if dir == "" {
		b.Skip("set CHARTER_BENCH_REPO to a repository made by scripts/bench-history.sh")
	}
	benchIndex(b, filepath.Join(dir, "config"))
}

// BenchmarkIndex is BenchmarkIndexRepo on a generated repository.
func BenchmarkIndex(b *testing.B) {
	benchIndex(b, filepath.Join(benchRepo(b, "10"), "config"))
}

func benchIndex(b *testing.B, root string) {
	for b.Loop() {
		repo, err := source.Open(root)
		if err != nil {
			b.Fatal(err)
		}
		idx, err := repo.Index()
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		err = fs.WalkDir(idx, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			_, err = fs.ReadFile(idx, p)
			n++
			return err
		})
		repo.Close()
		if err != nil {
			b.Fatal(err)
		}
		if n < 150 {
			b.Fatalf("read %d files, want at least 150", n)
		}
	}
}
