package validate_test

import (
	"os"
	"testing"

	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/config/validate"
	"github.com/charter-dev/charter/internal/testkit/gen"
)

// BenchmarkValidate2000 loads and validates a generated repository of
// 2,000 agents in one file each, as charter validate does. Compare with
// scripts/bench.sh, which times charter and cue vet -c on the
// same files.
func BenchmarkValidate2000(b *testing.B) { benchmarkValidate(b, 2000) }

func benchmarkValidate(b *testing.B, n int) {
	dir := b.TempDir()
	if err := gen.Write(dir, n); err != nil {
		b.Fatal(err)
	}
	fsys := os.DirFS(dir)
	b.ReportAllocs()
	for b.Loop() {
		repo, ds, err := load.Load(fsys, dir)
		if err != nil {
			b.Fatal(err)
		}
		res := validate.Run(repo)
		if len(ds) > 0 || !res.OK() {
			b.Fatalf("the generated repository does not validate: %v %v", ds, res.Diagnostics)
		}
	}
}

// TestGeneratedValidates checks that the generator writes a repository that
// validates, and the same bytes every time.
func TestGeneratedValidates(t *testing.T) {
	dir := t.TempDir()
	if err := gen.Write(dir, 60); err != nil {
		t.Fatal(err)
	}
	repo, ds, err := load.Load(os.DirFS(dir), dir)
	if err != nil {
		t.Fatal(err)
	}
	res := validate.Run(repo)
	if len(ds) > 0 || !res.OK() || len(res.Config.Agents) != 60 {
		t.Fatalf("generated repository: %d agents, diagnostics %v %v", len(res.Config.Agents), ds, res.Diagnostics)
	}
	again := t.TempDir()
	if err := gen.Write(again, 60); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"agents/a0007.cue", "agents/a0059.cue", "types.cue"} {
		x, _ := os.ReadFile(dir + "/" + f)
		y, _ := os.ReadFile(again + "/" + f)
		if string(x) != string(y) {
			t.Errorf("%s differs between two runs", f)
		}
	}
}
