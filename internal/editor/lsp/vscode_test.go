package lsp

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/charter-dev/charter/internal/testkit/gen"
	"github.com/charter-dev/charter/internal/testkit/npmtools"
	"github.com/charter-dev/charter/internal/testkit/realtool"
)

// TestVSCodeClient drives a charter binary built here with VS Code's own
// client library (internal/testkit/npmtools/lspdrive.mjs) on a generated
// repository: edits spaced as a person types, undos among them. Every
// edit gets diagnostics for its version or a later one, and at the end the
// diagnostics the client holds equal charter lint's on the same text. It
// asserts no timing: scripts/bench-lsp.sh measures.
func TestVSCodeClient(t *testing.T) {
	realtool.Long(t, "builds charter and drives it from Node")
	node, script := npmtools.LSPDriver(t)
	tmp := t.TempDir()
	charter := filepath.Join(tmp, "charter")
	if out, err := exec.Command("go", "build", "-o", charter, "../../../cmd/charter").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	root := filepath.Join(tmp, "repo")
	if err := gen.Write(root, 300); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, script, "--charter", charter, "--root", root,
		"--edits", "20", "--min", "0.05", "--max", "0.6", "--seed", "3")
	cmd.Env = append(cmd.Environ(), "XDG_CACHE_HOME="+filepath.Join(tmp, "cache"))
	out, err := cmd.Output()
	var report struct {
		Edits    int
		Failure  *string
		Mismatch any
	}
	if jerr := json.Unmarshal(out, &report); jerr != nil {
		t.Fatalf("lspdrive: %v, %v\n%s", err, jerr, out)
	}
	if err != nil || report.Failure != nil || report.Mismatch != nil || report.Edits != 20 {
		t.Fatalf("lspdrive: %v\n%s", err, out)
	}
}
