package bundle

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/testkit/gen"
	"github.com/charter-dev/charter/internal/testkit/testrepo"
)

// generated compiles a generated repository of n agents (internal/gen, as
// scripts/bench.sh uses).
func generated(b *testing.B, n int) *compiler.Program {
	b.Helper()
	dir := b.TempDir()
	if err := gen.Write(dir, n); err != nil {
		b.Fatal(err)
	}
	return testrepo.Compile(b, os.DirFS(dir))
}

// BenchmarkBuild500 renders, hashes and encodes every artifact of 500
// agents, in memory.
func BenchmarkBuild500(b *testing.B) {
	prog := generated(b, 500)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Build(prog, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteDir500 writes the bundle of 500 agents over the previous
// one, as a rebuild does.
func BenchmarkWriteDir500(b *testing.B) {
	tree, err := Build(generated(b, 500), Options{})
	if err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(b.TempDir(), "dist")
	b.ResetTimer()
	for b.Loop() {
		if err := WriteDir(out, tree); err != nil {
			b.Fatal(err)
		}
	}
}
