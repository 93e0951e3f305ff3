package revision

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
)

func TestTag(t *testing.T) {
	dir := t.TempDir()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	sig := &object.Signature{Name: "A", Email: "a@example.com", When: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	commit := func(content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "a.cue"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := wt.Add("a.cue"); err != nil {
			t.Fatal(err)
		}
		if _, err := wt.Commit(content, &git.CommitOptions{Author: sig, Committer: sig}); err != nil {
			t.Fatal(err)
		}
	}
	commit("package charter\n")
	head, _ := repo.Head()
	if _, err := repo.CreateTag("v1.0.0", head.Hash(), nil); err != nil {
		t.Fatal(err)
	}
	commit("package charter\n\n")
	head, _ = repo.Head()
	if _, err := repo.CreateTag("v1.1.0", head.Hash(), &git.CreateTagOptions{Tagger: sig, Message: "release"}); err != nil {
		t.Fatal(err)
	}
	for rev, want := range map[string]string{
		"v1.0.0":             "v1.0.0",
		"v1.1.0":             "v1.1.0", // annotated
		"refs/tags/v1.1.0":   "v1.1.0",
		"v1.1.0:sub":         "v1.1.0",
		"HEAD":               "",
		"master":             "",
		"v1.1.0~1":           "",
		"v9":                 "",
		head.Hash().String(): "",
	} {
		if got := Tag(dir, rev); got != want {
			t.Errorf("Tag(%q) = %q, want %q", rev, got, want)
		}
	}
	if got := Tag(t.TempDir(), "v1.0.0"); got != "" {
		t.Errorf("Tag outside a repository = %q", got)
	}
}
