package validate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/testkit/gen"
)

// Validating plain-literal agents on several goroutines gives what one
// goroutine gives: the same diagnostics (bad agents are validated again on
// the one goroutine, which reports them) and the same model. Run it with
// -race too.
func TestParallelMatchesSerial(t *testing.T) {
	dir := t.TempDir()
	if err := gen.Write(dir, 400); err != nil {
		t.Fatal(err)
	}
	// Mistakes in a few agents, and agents that share a hidden helper
	// (validated on the one goroutine).
	edit := func(file, old, new string) {
		p := filepath.Join(dir, file)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		s := strings.Replace(string(b), old, new, 1)
		if s == string(b) {
			t.Fatalf("%s: %q not found", file, old)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit("agents/a0007.cue", "\tstatus:", "\tstatsu: \"x\"\n\tstatus:")
	edit("agents/a0100.cue", "\tprofile:", "\tprofile: \"nope\"\n\t_unused:")
	edit("agents/a0222.cue", "\tstatus:         \"active\"", "\tstatus: \"retired\"")
	edit("agents/a0300.cue", "\tstatus:         \"active\"", "\tstatus: _status")
	edit("agents/a0301.cue", "\tstatus:         \"active\"", "\tstatus: _status")
	if err := os.WriteFile(filepath.Join(dir, "helpers.cue"), []byte("package charter\n\n_status: \"active\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	validateWith := func(workers int) *Result {
		repo, _, err := load.Load(os.DirFS(dir), dir)
		if err != nil {
			t.Fatal(err)
		}
		return runWith(repo, workers, true)
	}
	serial, parallel := validateWith(0), validateWith(4)
	if len(serial.Diagnostics) != 3 {
		t.Errorf("want 3 diagnostics, got %v", serial.Diagnostics)
	}
	if diff := cmp.Diff(serial.Diagnostics, parallel.Diagnostics); diff != "" {
		t.Errorf("diagnostics (-serial +parallel):\n%s", diff)
	}
	if diff := cmp.Diff(serial.Config, parallel.Config, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("model (-serial +parallel):\n%s", diff)
	}
	if diff := cmp.Diff(serial.Invalid, parallel.Invalid); diff != "" {
		t.Errorf("invalid declarations (-serial +parallel):\n%s", diff)
	}
}
