// Package sourcetest builds Git repositories for tests with the real git
// binary, with fixed identities and dates so that commit hashes are the
// same on every run and every machine.
package sourcetest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charter-dev/charter/internal/testkit/realtool"
)

// Epoch is the date of the first commit a Repo makes; each git command
// after it runs one minute later.
var Epoch = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

// HasGit reports whether the git binary is installed.
func HasGit() bool { return realtool.Have("git") }

// NeedGit ends the test when git is not installed: a skip on a
// developer's machine, a failure in CI (realtool.Missing).
func NeedGit(t testing.TB) {
	t.Helper()
	realtool.Need(t, "git", "git")
}

// Repo is a scratch repository in a temporary directory.
type Repo struct {
	t testing.TB
	// Dir is the top of the working tree.
	Dir string
	// Tick counts git commands; the next one runs at Epoch + Tick minutes.
	Tick int
	// FixedDate, when set, makes every command use Epoch, to test how ties
	// in commit time are ordered.
	FixedDate bool
}

// New makes an empty repository whose initial branch is main. When git is
// not installed it skips the test, and fails it in CI.
func New(t testing.TB) *Repo {
	t.Helper()
	NeedGit(t)
	r := &Repo{t: t, Dir: t.TempDir()}
	r.Git("init", "-q", "-b", "main")
	return r
}

// At returns a Repo that runs git in dir, sharing r's clock.
func (r *Repo) At(dir string) *Repo {
	return &Repo{t: r.t, Dir: dir, Tick: r.Tick, FixedDate: r.FixedDate}
}

// Env returns the environment for a git command at the given date: the
// process environment without any GIT_ variable (a test may run inside a
// git hook), plus fixed identities, dates and no system or global config.
func Env(date time.Time) []string {
	d := fmt.Sprintf("%d +0000", date.Unix())
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	return append(env,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=Ada Author",
		"GIT_AUTHOR_EMAIL=ada@example.com",
		"GIT_AUTHOR_DATE="+d,
		"GIT_COMMITTER_NAME=Cy Committer",
		"GIT_COMMITTER_EMAIL=cy@example.com",
		"GIT_COMMITTER_DATE="+d,
		"LC_ALL=C",
		"TZ=UTC",
	)
}

// Git runs git in r.Dir and returns its standard output without the
// trailing newline. It fails the test when git fails.
func (r *Repo) Git(args ...string) string {
	r.t.Helper()
	out, err := r.TryGit(args...)
	if err != nil {
		r.t.Fatal(err)
	}
	return out
}

// TryGit is Git returning the error instead of failing the test.
func (r *Repo) TryGit(args ...string) (string, error) {
	return r.run("", args)
}

// GitStdin is Git with stdin as the command's standard input.
func (r *Repo) GitStdin(stdin string, args ...string) string {
	r.t.Helper()
	out, err := r.run(stdin, args)
	if err != nil {
		r.t.Fatal(err)
	}
	return out
}

func (r *Repo) run(stdin string, args []string) (string, error) {
	date := Epoch
	if !r.FixedDate {
		date = Epoch.Add(time.Duration(r.Tick) * time.Minute)
	}
	r.Tick++
	cmd := exec.Command("git", args...)
	cmd.Dir = r.Dir
	cmd.Env = Env(date)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSuffix(stdout.String(), "\n"), nil
}

// Write writes files, given as path and content pairs relative to r.Dir,
// making directories as needed.
func (r *Repo) Write(pathContent ...string) {
	r.t.Helper()
	for i := 0; i+1 < len(pathContent); i += 2 {
		p := filepath.Join(r.Dir, filepath.FromSlash(pathContent[i]))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(pathContent[i+1]), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
}

// Remove removes files or directories relative to r.Dir.
func (r *Repo) Remove(paths ...string) {
	r.t.Helper()
	for _, p := range paths {
		if err := os.RemoveAll(filepath.Join(r.Dir, filepath.FromSlash(p))); err != nil {
			r.t.Fatal(err)
		}
	}
}

// Commit stages everything and commits it with message msg (allowing an
// empty commit), and returns the new HEAD.
func (r *Repo) Commit(msg string) string {
	r.t.Helper()
	r.Git("add", "-A")
	r.Git("commit", "-q", "--allow-empty", "-m", msg)
	return r.Git("rev-parse", "HEAD")
}
