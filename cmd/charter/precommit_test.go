// The pre-commit hooks charter publishes in .pre-commit-hooks.yaml, tested
// with the real pre-commit framework.
package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/charter-dev/charter/internal/repo/starter"
	"github.com/charter-dev/charter/internal/testkit/realtool"
)

// precommitHook is one entry of .pre-commit-hooks.yaml.
type precommitHook struct {
	ID            string `yaml:"id"`
	Name          string `yaml:"name"`
	Description   string `yaml:"description,omitempty"`
	Entry         string `yaml:"entry"`
	Language      string `yaml:"language"`
	PassFilenames *bool  `yaml:"pass_filenames"`
	Files         string `yaml:"files"`
	AlwaysRun     *bool  `yaml:"always_run"`
}

func readHooks(t *testing.T) []precommitHook {
	t.Helper()
	b, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var hooks []precommitHook
	if err := yaml.Unmarshal(b, &hooks); err != nil {
		t.Fatalf(".pre-commit-hooks.yaml: %v", err)
	}
	return hooks
}

// TestHooksFile checks the published hooks: ids, entries, language and
// the file filter.
func TestHooksFile(t *testing.T) {
	hooks := readHooks(t)
	want := map[string]string{
		"charter-validate": "charter validate --staged",
		"charter-lint":     "charter lint --staged",
	}
	if len(hooks) != len(want) {
		t.Errorf("%d hooks, want %d", len(hooks), len(want))
	}
	for _, h := range hooks {
		entry, ok := want[h.ID]
		if !ok {
			t.Errorf("unexpected hook %q", h.ID)
			continue
		}
		if h.Entry != entry {
			t.Errorf("%s: entry %q, want %q", h.ID, h.Entry, entry)
		}
		if h.Language != "golang" {
			t.Errorf("%s: language %q, want golang (pre-commit builds ./cmd/charter from the repository)", h.ID, h.Language)
		}
		if h.PassFilenames == nil || *h.PassFilenames {
			t.Errorf("%s: pass_filenames must be false: charter reads the whole staged config root", h.ID)
		}
		if h.AlwaysRun == nil || !*h.AlwaysRun {
			t.Errorf("%s: always_run must be true: pre-commit passes no deleted files, so a commit that only deletes .cue files would skip the hook", h.ID)
		}
		if h.Files != "" {
			t.Errorf("%s: files %q: a filter cannot see deleted files; leave it out", h.ID, h.Files)
		}
		if h.Name == "" || h.Description == "" {
			t.Errorf("%s: name and description are shown to users; set both", h.ID)
		}
	}
	if path, err := exec.LookPath("pre-commit"); err == nil {
		if out, err := exec.Command(path, "validate-manifest", "../../.pre-commit-hooks.yaml").CombinedOutput(); err != nil {
			t.Errorf("pre-commit validate-manifest: %v\n%s", err, out)
		}
	}
}

func need(t *testing.T, tool string) string {
	t.Helper()
	return realtool.Need(t, tool, tool)
}

// TestPreCommit drives the real pre-commit framework through git commit on
// a scratch repository, with the published hooks run from a charter binary
// built here (language: golang would build charter from the hook
// repository's URL, which needs the network): a bad staged change is
// refused, a good one passes, and a bad change that is not staged does not
// block a commit.
func TestPreCommit(t *testing.T) {
	realtool.Long(t, "builds charter and drives pre-commit")
	preCommit := need(t, "pre-commit")
	need(t, "git")

	tmp := t.TempDir()
	charter := filepath.Join(tmp, "bin", "charter")
	if out, err := exec.Command("go", "build", "-o", charter, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	// The published hooks, run as local hooks from the binary.
	var local []map[string]any
	for _, h := range readHooks(t) {
		args := strings.Fields(h.Entry)
		if args[0] != "charter" {
			t.Fatalf("%s: entry %q does not run charter", h.ID, h.Entry)
		}
		local = append(local, map[string]any{
			"id": h.ID, "name": h.Name, "entry": charter + " " + strings.Join(args[1:], " "),
			"language": "system", "pass_filenames": *h.PassFilenames, "always_run": *h.AlwaysRun,
		})
	}
	config, err := yaml.Marshal(map[string]any{"repos": []any{map[string]any{"repo": "local", "hooks": local}}})
	if err != nil {
		t.Fatal(err)
	}

	repo := filepath.Join(tmp, "repo")
	if _, err := starter.Write(repo); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, ".pre-commit-config.yaml"), config, 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(),
		"GIT_AUTHOR_NAME=Ada Author", "GIT_AUTHOR_EMAIL=ada@example.com", "GIT_AUTHOR_DATE=2026-01-01T12:00:00Z",
		"GIT_COMMITTER_NAME=Cy Committer", "GIT_COMMITTER_EMAIL=cy@example.com", "GIT_COMMITTER_DATE=2026-01-01T12:00:00Z",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"PRE_COMMIT_HOME="+filepath.Join(tmp, "pre-commit-home"), "PRE_COMMIT_COLOR=never", "NO_COLOR=1")
	run := func(name string, args ...string) (string, error) {
		cmd := exec.Command(name, args...)
		cmd.Dir = repo
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	must := func(name string, args ...string) string {
		t.Helper()
		out, err := run(name, args...)
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return out
	}
	write := func(path, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(repo, path), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	head := func() string { return strings.TrimSpace(must("git", "rev-parse", "HEAD")) }

	must("git", "init", "-q", "-b", "main")
	must(preCommit, "install")

	// The starter must pass every hook that runs, or no commit can; say so
	// plainly rather than through pre-commit's output.
	must("git", "add", "-A")
	for _, h := range local {
		args := strings.Fields(h["entry"].(string))
		if out, err := run(args[0], args[1:]...); err != nil {
			t.Fatalf("the starter repository (charter init) fails hook %s (%s): %v\n%s\nA new repository must pass the published hooks: fix the starter or the check.", h["id"], h["entry"], err, out)
		}
	}

	// A good change passes.
	must("git", "add", "-A")
	out := must("git", "commit", "-q", "-m", "starter")
	if !strings.Contains(out, "charter validate") || !strings.Contains(out, "Passed") {
		t.Errorf("good commit: hook did not report Passed:\n%s", out)
	}
	good := head()

	// A bad staged change is refused, with charter's message.
	ann, err := os.ReadFile(filepath.Join(repo, "agents/ann.cue"))
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(ann), `formatting: "plain"`, `formatting: "plane"`, 1)
	if bad == string(ann) {
		t.Fatal("starter's agents/ann.cue changed; update the test's bad edit")
	}
	write("agents/ann.cue", bad)
	must("git", "add", "agents/ann.cue")
	out, err = run("git", "commit", "-q", "-m", "bad")
	if err == nil {
		t.Fatalf("bad staged change was committed:\n%s", out)
	}
	if !strings.Contains(out, "Failed") || !strings.Contains(out, `agents/ann.cue:`) || !strings.Contains(out, `"plane" is not an option`) {
		t.Errorf("bad commit: want the hook's failure with charter's diagnostic:\n%s", out)
	}
	if head() != good {
		t.Errorf("HEAD moved after a refused commit")
	}

	// The same bad change, left in the working tree but not staged, does
	// not block a good staged change.
	must("git", "restore", "--staged", "agents/ann.cue")
	bob, err := os.ReadFile(filepath.Join(repo, "agents/bob.cue"))
	if err != nil {
		t.Fatal(err)
	}
	write("agents/bob.cue", "// Bob leads support.\n"+string(bob))
	must("git", "add", "agents/bob.cue")
	out = must("git", "commit", "-q", "-m", "document bob")
	if !strings.Contains(out, "Passed") {
		t.Errorf("commit with an unstaged bad change: want Passed:\n%s", out)
	}
	if got, _ := os.ReadFile(filepath.Join(repo, "agents/ann.cue")); string(got) != bad {
		t.Errorf("the unstaged change in the working tree was lost")
	}

	// A commit that touches no .cue file runs the hooks, which pass.
	write("README.md", "notes\n")
	must("git", "add", "README.md")
	out = must("git", "commit", "-q", "-m", "readme")
	if strings.Contains(out, "Skipped") || !strings.Contains(out, "Passed") {
		t.Errorf("commit without .cue files: want the hooks run and passed:\n%s", out)
	}

	// A commit that only deletes a .cue file still runs the hooks, and
	// they refuse it when the deletion breaks the configuration: ann
	// reports to bob.
	must("git", "rm", "-q", "agents/bob.cue")
	before := head()
	out, err = run("git", "commit", "-q", "-m", "remove bob")
	if err == nil {
		t.Fatalf("a commit deleting the agent ann reports to was accepted:\n%s", out)
	}
	if !strings.Contains(out, "Failed") || !strings.Contains(out, "bob") {
		t.Errorf("deleting bob: want the hooks' failure naming bob:\n%s", out)
	}
	if head() != before {
		t.Errorf("HEAD moved after a refused commit")
	}
}

// TestHookInstallBuildsCharterOnly checks what pre-commit builds for
// language: golang hooks: it runs `go install ./...` in this repository,
// so charter and charter-hook (the Claude Code hook, which shares its
// packages) must be its only main packages: no test tool, no generator.
func TestHookInstallBuildsCharterOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{if eq .Name \"main\"}}{{.ImportPath}}{{end}}", "../../...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	got := strings.Fields(string(out))
	want := []string{"github.com/charter-dev/charter/cmd/charter", "github.com/charter-dev/charter/cmd/charter-hook"}
	if !slices.Equal(got, want) {
		t.Errorf("go install ./... would install %v; want only %v (give other commands a build tag)", got, want)
	}
}

// TestPreCommitSubfolder: with the charter repository in config/ and the
// hooks given `args: [-C, config]` (as .pre-commit-hooks.yaml says),
// pre-commit runs them from the repository's root, and the diagnostics
// name files from there (config/agents/ann.cue), paths a reader can open;
// they named them from the config root (agents/ann.cue).
func TestPreCommitSubfolder(t *testing.T) {
	realtool.Long(t, "builds charter and drives pre-commit")
	preCommit := need(t, "pre-commit")
	need(t, "git")
	tmp := t.TempDir()
	charter := filepath.Join(tmp, "bin", "charter")
	if out, err := exec.Command("go", "build", "-o", charter, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var local []map[string]any
	for _, h := range readHooks(t) {
		args := strings.Fields(h.Entry)
		local = append(local, map[string]any{
			"id": h.ID, "name": h.Name, "entry": charter + " " + strings.Join(args[1:], " "), "args": []string{"-C", "config"},
			"language": "system", "pass_filenames": *h.PassFilenames, "always_run": *h.AlwaysRun,
		})
	}
	config, err := yaml.Marshal(map[string]any{"repos": []any{map[string]any{"repo": "local", "hooks": local}}})
	if err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(tmp, "repo")
	if _, err := starter.Write(filepath.Join(repo, "config")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, ".pre-commit-config.yaml"), config, 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "GIT_AUTHOR_NAME=Ada Author", "GIT_AUTHOR_EMAIL=ada@example.com",
		"GIT_COMMITTER_NAME=Cy Committer", "GIT_COMMITTER_EMAIL=cy@example.com", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"PRE_COMMIT_HOME="+filepath.Join(tmp, "pre-commit-home"), "PRE_COMMIT_COLOR=never", "NO_COLOR=1")
	run := func(name string, args ...string) (string, error) {
		cmd := exec.Command(name, args...)
		cmd.Dir = repo
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	for _, args := range [][]string{{"git", "init", "-q", "-b", "main"}, {preCommit, "install"}, {"git", "add", "-A"}, {"git", "commit", "-q", "-m", "starter"}} {
		if out, err := run(args[0], args[1:]...); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	ann := filepath.Join(repo, "config", "agents", "ann.cue")
	src, err := os.ReadFile(ann)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ann, []byte(strings.Replace(string(src), `formatting: "plain"`, `formatting: "plane"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := run("git", "add", "-A"); err != nil {
		t.Fatal(err, out)
	}
	out, err := run("git", "commit", "-q", "-m", "bad")
	if err == nil {
		t.Fatalf("a bad staged change was committed:\n%s", out)
	}
	if !regexp.MustCompile(`(?m)^config/agents/ann\.cue:[0-9]+:[0-9]+: error: \[unknown-option\]`).MatchString(out) {
		t.Errorf("want the diagnostic at config/agents/ann.cue, the path from where pre-commit runs:\n%s", out)
	}
}
