package lsp

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/testkit/realtool"
)

// TestNeovim drives Debian's Neovim headless, with its built-in LSP
// client, against a charter binary built here, on a copy of
// examples/dev-team: it opens a file, introduces a bad option, reads the
// diagnostic back, asks for hover, completion and a code action, applies
// it and checks the buffer (testdata/nvim.lua).
func TestNeovim(t *testing.T) {
	realtool.Long(t, "builds charter and drives Neovim")
	nvim := realtool.Need(t, "nvim", "neovim")
	tmp := t.TempDir()
	charter := filepath.Join(tmp, "charter")
	if out, err := exec.Command("go", "build", "-o", charter, "../../../cmd/charter").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	root := copyDir(t, "../../../examples/dev-team")
	script, err := filepath.Abs("testdata/nvim.lua")
	if err != nil {
		t.Fatal(err)
	}
	reportPath := filepath.Join(tmp, "report.json")
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-u", "NONE", "-c", "luafile "+script, "-c", "cquit 2")
	cmd.Env = append(os.Environ(), "CHARTER="+charter, "ROOT="+root, "REPORT="+reportPath,
		"XDG_CACHE_HOME="+filepath.Join(tmp, "cache"), "XDG_STATE_HOME="+filepath.Join(tmp, "state"), "XDG_DATA_HOME="+filepath.Join(tmp, "data"))
	out, err := cmd.CombinedOutput()
	b, rerr := os.ReadFile(reportPath)
	if err != nil || rerr != nil {
		t.Fatalf("nvim: %v\n%s\nreport: %s %v", err, out, b, rerr)
	}
	var got struct {
		Steps      []string
		Error      string
		Diagnostic struct {
			Message, Code, Source string
			Lnum, Col             int
		}
		Hover      string
		Completion []string
		Actions    []string
		LineAfter  string `json:"line after fix"`
		Cleared    bool
		Definition string
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("report: %v\n%s", err, b)
	}
	if got.Error != "" {
		t.Fatalf("the script failed after %v: %s\nnvim output:\n%s", got.Steps, got.Error, out)
	}
	wantMsg := `agents.marco.behavior.communication.verbosity: "consise" is not an option; valid options: concise, detailed, minimal (did you mean "concise"?)`
	if got.Diagnostic.Message != wantMsg || got.Diagnostic.Code != "unknown-option" || got.Diagnostic.Source != "charter" {
		t.Errorf("diagnostic: %+v\nwant %q [unknown-option] from charter", got.Diagnostic, wantMsg)
	}
	if got.Diagnostic.Lnum != 10 || got.Diagnostic.Col != 38 {
		t.Errorf("diagnostic at %d:%d, want 10:38 (0-based: the value at 11:39)", got.Diagnostic.Lnum, got.Diagnostic.Col)
	}
	if !strings.Contains(got.Hover, "**every_step** — option of communication.progress_updates") {
		t.Errorf("hover: %q", got.Hover)
	}
	if diff := cmp.Diff([]string{"concise", "detailed", "minimal"}, got.Completion); diff != "" {
		t.Errorf("completion (-want +got):\n%s", diff)
	}
	if len(got.Actions) == 0 || got.Actions[0] != `Replace with "concise"` {
		t.Errorf("code actions: %q", got.Actions)
	}
	if want := "\tbehavior: communication: {verbosity: \"concise\", progress_updates: \"every_step\"}"; got.LineAfter != want {
		t.Errorf("line after the fix: %q, want %q", got.LineAfter, want)
	}
	if !got.Cleared {
		t.Errorf("the diagnostic stayed after the fix")
	}
	if !strings.HasSuffix(got.Definition, "/agents/sarah.cue") {
		t.Errorf("definition: %q", got.Definition)
	}
}

// TestNeovimDocsConfig runs Neovim with the init.lua docs/editors.md gives
// under "Neovim", as a user pastes it, with charter on PATH: opening a .cue
// file with a bad option must start charter and show the diagnostic.
func TestNeovimDocsConfig(t *testing.T) {
	realtool.Long(t, "builds charter and drives Neovim")
	nvim := realtool.Need(t, "nvim", "neovim")
	doc, err := os.ReadFile("../../../docs/editors.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "\n## Neovim\n")
	_, block, ok2 := strings.Cut(section, "```lua\n")
	init, _, ok3 := strings.Cut(block, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("docs/editors.md has no lua block under ## Neovim")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "bin")
	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, "charter"), "../../../cmd/charter").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	initPath := filepath.Join(tmp, "init.lua")
	if err := os.WriteFile(initPath, []byte(init), 0o644); err != nil {
		t.Fatal(err)
	}
	root := copyDir(t, "../../../examples/dev-team")
	marco := filepath.Join(root, "agents", "marco.cue")
	b, err := os.ReadFile(marco)
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(b), `verbosity: "concise"`, `verbosity: "consise"`, 1)
	if bad == string(b) {
		t.Fatal(`marco.cue has no verbosity: "concise"`)
	}
	if err := os.WriteFile(marco, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs("testdata/nvim_docs.lua")
	if err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(tmp, "report.txt")
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "-u", initPath, "agents/marco.cue", "-c", "luafile "+script, "-c", "cquit 2")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "REPORT="+report,
		"XDG_CONFIG_HOME="+filepath.Join(tmp, "config"), "XDG_CACHE_HOME="+filepath.Join(tmp, "cache"),
		"XDG_STATE_HOME="+filepath.Join(tmp, "state"), "XDG_DATA_HOME="+filepath.Join(tmp, "data"))
	out, err := cmd.CombinedOutput()
	got, rerr := os.ReadFile(report)
	if err != nil || rerr != nil {
		t.Fatalf("nvim: %v\n%s\nreport: %s %v", err, out, got, rerr)
	}
	if !strings.HasPrefix(string(got), "filetype=cue clients=1\n") || !strings.Contains(string(got), `"consise" is not an option`) {
		t.Errorf("with the docs' init.lua, Neovim reported:\n%s\nwant filetype cue, charter attached, and the unknown option", got)
	}
}
