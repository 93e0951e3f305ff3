package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/internal/repo/source/sourcetest"
)

// TestHelpExamplesRun runs every line of every command's Examples, as
// written, in the repository the README's tour makes: `charter init`'s
// starter, committed and tagged v1.2.0, then Ann's budget raised and
// committed as v1.3.0, with origin/main at v1.2.0. A user copies an
// example into that repository first; none may end in exit 2 (a usage
// error, an unknown agent, a revision that does not exist). An output
// redirection is dropped (its output is not checked), $BASE and $HEAD are
// the two tags.
func TestHelpExamplesRun(t *testing.T) {
	dir := tourRepo(t)
	t.Chdir(dir)
	t.Setenv("BASE", "v1.2.0")
	t.Setenv("HEAD", "v1.3.0")
	root := newRoot(&globals{})
	n := 0
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, line := range strings.Split(c.Example, "\n") {
			line = strings.TrimSpace(line)
			if line == "" {
				continue
			}
			args, ok := exampleArgs(line)
			if !ok {
				t.Errorf("%s: example %q is not a charter command line", c.CommandPath(), line)
				continue
			}
			n++
			var stdout, stderr bytes.Buffer
			if code := run(args, &stdout, &stderr); code == exitError {
				t.Errorf("%s: example %q exits 2:\n%s", c.CommandPath(), line, stderr.String())
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	if n == 0 {
		t.Fatal("no examples found")
	}
}

// exampleArgs returns the arguments of an example line "charter ARGS...
// [> FILE] [# comment]", its double quotes removed and $VARS expanded.
func exampleArgs(line string) ([]string, bool) {
	if i := strings.Index(line, " #"); i >= 0 {
		line = line[:i]
	}
	if i := strings.Index(line, " >"); i >= 0 {
		line = line[:i]
	}
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != "charter" {
		return nil, false
	}
	args := f[1:]
	for i, a := range args {
		args[i] = os.ExpandEnv(strings.Trim(a, `"`))
	}
	return args, true
}

// tourRepo makes the repository of the README's tour in a temporary
// folder (git from sourcetest: a failure in CI when it is missing) and
// returns it.
func tourRepo(t *testing.T) string {
	t.Helper()
	r := sourcetest.New(t)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"init", r.Dir}, &stdout, &stderr); code != exitOK {
		t.Fatalf("charter init: exit %d\n%s", code, stderr.String())
	}
	r.Git("add", "-A")
	r.Git("commit", "-qm", "Start from charter init")
	r.Git("tag", "v1.2.0")
	ann := filepath.Join(r.Dir, "agents", "ann.cue")
	b, err := os.ReadFile(ann)
	if err != nil {
		t.Fatal(err)
	}
	raised := strings.Replace(string(b), "budget_limit: 50}", "budget_limit: 800}", 1)
	if raised == string(b) {
		t.Fatal("the starter's ann.cue has no budget_limit: 50")
	}
	if err := os.WriteFile(ann, []byte(raised), 0o644); err != nil {
		t.Fatal(err)
	}
	r.Git("commit", "-qam", "Ann handles larger refunds")
	r.Git("tag", "v1.3.0")
	r.Git("update-ref", "refs/remotes/origin/main", "v1.2.0")
	if err := os.WriteFile(filepath.Join(r.Dir, "reviews.json"), []byte("[]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return r.Dir
}
