package source_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/repo/source"
	"github.com/charter-dev/charter/internal/repo/source/sourcetest"
)

// fixture builds:
//
//	c0 (tag v0)   other/readme.txt only; no config root yet
//	c1 (tag v1)   configs/agents/a.cue, configs/agents/team/b.cue
//	c2 (tag v2, annotated)  a.cue changed
//	side: c3      team/b.cue changed
//	main: c4      other/readme.txt changed
//	c5            merge of side into main
type fixture struct {
	*sourcetest.Repo
	c []string
}

func newFixture(t *testing.T) *fixture {
	r := sourcetest.New(t)
	f := &fixture{Repo: r}
	r.Write("other/readme.txt", "hello\n")
	f.c = append(f.c, r.Commit("c0: readme"))
	r.Git("tag", "v0")
	r.Write("configs/agents/a.cue", "agents: a: {name: \"A\"}\n", "configs/agents/team/b.cue", "agents: b: {name: \"B\"}\n")
	f.c = append(f.c, r.Commit("c1: agents a and b"))
	r.Git("tag", "v1")
	r.Write("configs/agents/a.cue", "agents: a: {name: \"A2\"}\n")
	f.c = append(f.c, r.Commit("c2: rename a"))
	r.Git("tag", "-a", "v2", "-m", "release 2")
	r.Git("checkout", "-q", "-b", "side")
	r.Write("configs/agents/team/b.cue", "agents: b: {name: \"B2\"}\n")
	f.c = append(f.c, r.Commit("c3: rename b"))
	r.Git("checkout", "-q", "main")
	r.Write("other/readme.txt", "hello again\n")
	f.c = append(f.c, r.Commit("c4: readme"))
	r.Git("merge", "-q", "--no-ff", "-m", "c5: merge side", "side")
	f.c = append(f.c, r.Git("rev-parse", "HEAD"))
	return f
}

func open(t *testing.T, dir string) *source.Repo {
	t.Helper()
	repo, err := source.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { repo.Close() })
	return repo
}

func TestOpenPaths(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	top, err := filepath.EvalSymlinks(f.Dir)
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	symlink(t, f.Dir, link)

	tests := []struct {
		dir  string
		want string
	}{
		{f.Dir, "."},
		{filepath.Join(f.Dir, "configs", "agents"), "configs/agents"},
		{filepath.Join(f.Dir, "configs", "agents", "team") + string(filepath.Separator), "configs/agents/team"},
		{filepath.Join(link, "configs", "agents"), "configs/agents"},
		{filepath.Join(f.Dir, "configs", "gone", "deeper"), "configs/gone/deeper"},
	}
	for _, tt := range tests {
		repo := open(t, tt.dir)
		if got := repo.ConfigPath(); got != tt.want {
			t.Errorf("Open(%s).ConfigPath() = %q, want %q", tt.dir, got, tt.want)
		}
		if got := repo.TopLevel(); got != top {
			t.Errorf("Open(%s).TopLevel() = %q, want %q", tt.dir, got, top)
		}
	}
}

func TestOpenNotRepository(t *testing.T) {
	sourcetest.NeedGit(t)
	dir := t.TempDir()
	_, err := source.Open(dir)
	var nr *source.NotRepositoryError
	if !errors.As(err, &nr) {
		t.Fatalf("Open outside a repository: got %v, want *NotRepositoryError", err)
	}
	if !strings.Contains(err.Error(), "the working tree can still be validated") {
		t.Errorf("message does not name the way out: %v", err)
	}
	writeFiles(t, dir, "file.cue", "")
	if _, err := source.Open(filepath.Join(dir, "file.cue")); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("Open of a file: got %v, want a not-a-directory error", err)
	}
}

func TestResolve(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	repo := open(t, f.Dir)
	revs := []string{
		"HEAD", "HEAD~1", "HEAD~2", "HEAD^", "HEAD^1", "HEAD^2", "HEAD^0", "HEAD^2~1",
		"HEAD~~", "HEAD^^", "main", "side", "heads/main", "refs/heads/main",
		"v0", "v1", "v2", "tags/v2", "refs/tags/v2", "v2~1",
		f.c[2], f.c[2][:7], f.c[3][:12], strings.ToUpper(f.c[1][:10]),
	}
	for _, rev := range revs {
		want := f.Git("rev-parse", "--verify", "-q", rev+"^{commit}")
		got, err := repo.Resolve(rev)
		if err != nil {
			t.Errorf("Resolve(%q): %v", rev, err)
			continue
		}
		if got.String() != want {
			t.Errorf("Resolve(%q) = %s, want %s (git rev-parse)", rev, got, want)
		}
	}
}

func TestResolveErrors(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	repo := open(t, f.Dir)
	tree := f.Git("rev-parse", "HEAD^{tree}")
	tests := []struct {
		rev  string
		as   any
		want string
	}{
		{"HEAD:configs", new(*source.UnsupportedRevisionError), `unsupported revision "HEAD:configs": REV:PATH selects a path; charter takes the path separately; use a branch, a tag, a commit hash or HEAD, optionally followed by ~N or ^N`},
		{"HEAD^{tree}", new(*source.UnsupportedRevisionError), `unsupported revision "HEAD^{tree}": ^{...} is not supported; use a branch, a tag, a commit hash or HEAD, optionally followed by ~N or ^N`},
		{"HEAD@{1}", new(*source.UnsupportedRevisionError), `unsupported revision "HEAD@{1}": reflog syntax @{...} is not supported; use a branch, a tag, a commit hash or HEAD, optionally followed by ~N or ^N`},
		{"main..side", new(*source.UnsupportedRevisionError), ""},
		{"@", new(*source.UnsupportedRevisionError), ""},
		{"-v", new(*source.UnsupportedRevisionError), ""},
		{"", new(*source.UnsupportedRevisionError), ""},
		{"HEAD^!", new(*source.UnsupportedRevisionError), ""},
		{"~1", new(*source.UnsupportedRevisionError), ""},
		{"ma in", new(*source.UnsupportedRevisionError), ""},
		{"v9", new(*source.UnknownRevisionError), `unknown revision "v9": no branch, tag or commit of that name`},
		{"HEAD~100", new(*source.UnknownRevisionError), ""},
		{"HEAD^3", new(*source.UnknownRevisionError), ""},
		{"v0~1", new(*source.UnknownRevisionError), ""},
		{"0000000", new(*source.UnknownRevisionError), ""},
		{tree, new(*source.NotCommitError), ""},
	}
	for _, tt := range tests {
		_, err := repo.Resolve(tt.rev)
		if err == nil {
			t.Errorf("Resolve(%q) succeeded", tt.rev)
			continue
		}
		if !errors.As(err, tt.as) {
			t.Errorf("Resolve(%q): got %T %v, want %T", tt.rev, err, err, tt.as)
		}
		if tt.want != "" && err.Error() != tt.want {
			t.Errorf("Resolve(%q):\ngot  %s\nwant %s", tt.rev, err, tt.want)
		}
	}
}

func TestSplitRevPath(t *testing.T) {
	tests := []struct {
		in      string
		rev     string
		path    string
		hasPath bool
		err     bool
	}{
		{in: "v1.2.0:configs/agents", rev: "v1.2.0", path: "configs/agents", hasPath: true},
		{in: "HEAD~2:configs/agents/", rev: "HEAD~2", path: "configs/agents", hasPath: true},
		{in: "HEAD:", rev: "HEAD", path: ".", hasPath: true},
		{in: "main", rev: "main"},
		{in: ":configs", err: true},
		{in: "HEAD:./configs", err: true},
		{in: "HEAD:../x", err: true},
		{in: "HEAD:/abs", err: true},
		{in: "HEAD:a/../b", err: true},
		{in: "HEAD:a\\b", err: true},
	}
	for _, tt := range tests {
		rev, p, has, err := source.SplitRevPath(tt.in)
		if tt.err {
			var ue *source.UnsupportedRevisionError
			if !errors.As(err, &ue) {
				t.Errorf("SplitRevPath(%q): got %v, want *UnsupportedRevisionError", tt.in, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("SplitRevPath(%q): %v", tt.in, err)
			continue
		}
		if d := cmp.Diff([]any{tt.rev, tt.path, tt.hasPath}, []any{rev, p, has}); d != "" {
			t.Errorf("SplitRevPath(%q) (-want +got):\n%s", tt.in, d)
		}
	}
}

// gitFiles lists the files git has at rev under dir, relative to dir, with
// their content.
func gitFiles(t *testing.T, r *sourcetest.Repo, rev, dir string) map[string]string {
	t.Helper()
	out := r.Git("ls-tree", "-r", "--name-only", rev, "--", dir+"/")
	files := map[string]string{}
	for _, p := range strings.Split(out, "\n") {
		if p == "" {
			continue
		}
		files[strings.TrimPrefix(p, dir+"/")] = r.Git("cat-file", "blob", rev+":"+p) + "\n"
	}
	return files
}

// fsFiles reads every file of fsys.
func fsFiles(t *testing.T, fsys fs.FS) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		files[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestCommit(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	repo := open(t, filepath.Join(f.Dir, "configs", "agents"))
	for _, rev := range []string{"HEAD", "HEAD~1", "HEAD^2", "v1", "v2", "side", f.c[2][:8]} {
		snap, err := repo.Commit(rev)
		if err != nil {
			t.Fatalf("Commit(%q): %v", rev, err)
		}
		if got, want := snap.CommitHash.String(), f.Git("rev-parse", rev+"^{commit}"); got != want {
			t.Errorf("Commit(%q).CommitHash = %s, want %s", rev, got, want)
		}
		if got, want := snap.TreeHash.String(), f.Git("rev-parse", rev+":configs/agents"); got != want {
			t.Errorf("Commit(%q).TreeHash = %s, want %s", rev, got, want)
		}
		if d := cmp.Diff(gitFiles(t, f.Repo, rev, "configs/agents"), fsFiles(t, snap.FS)); d != "" {
			t.Errorf("Commit(%q) files (-git +fs):\n%s", rev, d)
		}
		if err := fstest.TestFS(snap.FS, "a.cue", "team/b.cue"); err != nil {
			t.Errorf("Commit(%q): %v", rev, err)
		}
	}
	snap, err := repo.Commit("v2")
	if err != nil {
		t.Fatal(err)
	}
	got := []string{snap.Author.Name, snap.Author.Email, snap.Committer.Name, snap.Committer.Email,
		snap.Committer.When.UTC().Format("2006-01-02T15:04:05Z"), snap.Message, snap.Path, snap.Rev}
	want := []string{"Ada Author", "ada@example.com", "Cy Committer", "cy@example.com",
		f.Git("log", "-1", "--format=%cd", "--date=format-local:%Y-%m-%dT%H:%M:%SZ", "v2"), "c2: rename a\n", "configs/agents", "v2"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Commit(v2) metadata (-want +got):\n%s", d)
	}
	fi, err := fs.Stat(snap.FS, "a.cue")
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() != int64(len("agents: a: {name: \"A2\"}\n")) || !fi.ModTime().Equal(snap.Committer.When) {
		t.Errorf("Stat(a.cue) = size %d, mtime %v", fi.Size(), fi.ModTime())
	}
	if h, ok := fi.Sys().(interface{ String() string }); !ok || h.String() != f.Git("rev-parse", "v2:configs/agents/a.cue") {
		t.Errorf("Stat(a.cue).Sys() = %v, want the blob hash", fi.Sys())
	}

	// The whole repository, and another directory, by REV:PATH.
	rev, p, _, err := source.SplitRevPath("v1:other")
	if err != nil {
		t.Fatal(err)
	}
	other, err := repo.CommitPath(rev, p)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(map[string]string{"readme.txt": "hello\n"}, fsFiles(t, other.FS)); d != "" {
		t.Errorf("CommitPath(v1, other) (-want +got):\n%s", d)
	}
	all, err := repo.CommitPath("HEAD", ".")
	if err != nil {
		t.Fatal(err)
	}
	if all.TreeHash.String() != f.Git("rev-parse", "HEAD^{tree}") {
		t.Errorf("CommitPath(HEAD, .).TreeHash = %s", all.TreeHash)
	}
}

func TestCommitTree(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	repo := open(t, filepath.Join(f.Dir, "configs", "agents"))
	for _, rev := range []string{"HEAD", "HEAD^2", "v1"} {
		snap, err := repo.Commit(rev)
		if err != nil {
			t.Fatal(err)
		}
		fsys := repo.CommitTree(snap.CommitHash, snap.TreeHash, snap.Committer.When)
		if d := cmp.Diff(fsFiles(t, snap.FS), fsFiles(t, fsys)); d != "" {
			t.Errorf("CommitTree at %s (-Commit +CommitTree):\n%s", rev, d)
		}
		if err := fstest.TestFS(fsys, "a.cue", "team/b.cue"); err != nil {
			t.Errorf("CommitTree at %s: %v", rev, err)
		}
		fi, err := fs.Stat(fsys, "a.cue")
		if err != nil {
			t.Fatal(err)
		}
		if !fi.ModTime().Equal(snap.Committer.When) {
			t.Errorf("CommitTree at %s: ModTime = %v, want %v", rev, fi.ModTime(), snap.Committer.When)
		}
	}
}

// TestBlobHash: BlobHash names each file's blob, and Blob reads it.
func TestBlobHash(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	repo := open(t, filepath.Join(f.Dir, "configs", "agents"))
	snap, err := repo.Commit("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	err = fs.WalkDir(snap.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if h, ok := source.BlobHash(d); ok {
			got[p] = h.String()
			b, err := repo.Blob(h)
			if err != nil {
				return err
			}
			if want, _ := fs.ReadFile(snap.FS, p); string(b) != string(want) {
				t.Errorf("Blob(%s) = %q, want %q", h, b, want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"a.cue":      f.Git("rev-parse", "HEAD:configs/agents/a.cue"),
		"team/b.cue": f.Git("rev-parse", "HEAD:configs/agents/team/b.cue"),
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("BlobHash (-git +BlobHash):\n%s", d)
	}
	entries, err := fs.ReadDir(fstest.MapFS{"a.cue": {Data: []byte("a: 1")}}, ".")
	if err != nil {
		t.Fatal(err)
	}
	if h, ok := source.BlobHash(entries[0]); ok {
		t.Errorf("BlobHash of a MapFS entry = %s, true; want false", h)
	}
}

func TestCommitPathErrors(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	repo := open(t, filepath.Join(f.Dir, "configs", "agents"))
	_, err := repo.Commit("v0")
	var pe *source.PathNotFoundError
	if !errors.As(err, &pe) {
		t.Fatalf("Commit(v0): got %v, want *PathNotFoundError", err)
	}
	want := "configs/agents does not exist at v0 (commit " + f.c[0][:7] + ")"
	if err.Error() != want {
		t.Errorf("Commit(v0):\ngot  %s\nwant %s", err, want)
	}
	_, err = repo.CommitPath("HEAD", "configs/agents/a.cue")
	if !errors.As(err, &pe) || !pe.NotDir {
		t.Errorf("CommitPath(HEAD, a file): got %v, want *PathNotFoundError with NotDir", err)
	}
}

func TestDetachedHead(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.Git("checkout", "-q", "--detach", "v1")
	repo := open(t, filepath.Join(f.Dir, "configs", "agents"))
	snap, err := repo.Commit("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if snap.CommitHash.String() != f.c[1] {
		t.Errorf("detached HEAD resolved to %s, want %s", snap.CommitHash, f.c[1])
	}
}

func TestLinkedWorktree(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	wt := filepath.Join(t.TempDir(), "wt")
	f.Git("worktree", "add", "-q", "-b", "feature", wt, "v2")
	w := f.At(wt)
	w.Write("configs/agents/new.cue", "agents: n: {}\n")
	w.Git("add", "configs/agents/new.cue")

	repo := open(t, filepath.Join(wt, "configs", "agents"))
	if got := repo.ConfigPath(); got != "configs/agents" {
		t.Errorf("ConfigPath() = %q", got)
	}
	snap, err := repo.Commit("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if snap.CommitHash.String() != f.c[2] {
		t.Errorf("worktree HEAD = %s, want %s (v2)", snap.CommitHash, f.c[2])
	}
	idx, err := repo.Index()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fs.Stat(idx, "new.cue"); err != nil {
		t.Errorf("the worktree's index lacks its staged file: %v", err)
	}
	// The main worktree's index is its own.
	main := open(t, filepath.Join(f.Dir, "configs", "agents"))
	mainIdx, err := main.Index()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fs.Stat(mainIdx, "new.cue"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the main index shows the linked worktree's staged file: %v", err)
	}
	if _, err := repo.Commit("main"); err != nil {
		t.Errorf("branches of the common repository: %v", err)
	}
}

func TestIndex(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.Write("configs/agents/gone.cue", "x: 1\n")
	f.Commit("gone")
	// Staged: must show.
	f.Git("rm", "-q", "configs/agents/gone.cue")
	f.Write("configs/agents/team/b.cue", "agents: b: {name: \"staged\"}\n")
	f.Write("configs/agents/added.cue", "agents: c: {}\n")
	f.Git("add", "configs/agents/team/b.cue", "configs/agents/added.cue")
	// Not staged: must not show.
	f.Write("configs/agents/team/b.cue", "agents: b: {name: \"unstaged again\"}\n")
	f.Write("configs/agents/a.cue", "agents: a: {name: \"unstaged\"}\n")
	f.Write("configs/agents/untracked.cue", "x: 1\n")
	f.Write("configs/agents/excluded.cue", "x: 1\n")
	f.Write(".git/info/exclude", "excluded.cue\n")
	f.Write("configs/agents/later.cue", "x: 1\n")
	f.Git("add", "-N", "configs/agents/later.cue")

	repo := open(t, filepath.Join(f.Dir, "configs", "agents"))
	idx, err := repo.Index()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"a.cue":      "agents: a: {name: \"A2\"}\n",
		"added.cue":  "agents: c: {}\n",
		"team/b.cue": "agents: b: {name: \"staged\"}\n",
	}
	if d := cmp.Diff(want, fsFiles(t, idx)); d != "" {
		t.Errorf("Index() (-want +got):\n%s", d)
	}
	if err := fstest.TestFS(idx, "a.cue", "added.cue", "team/b.cue"); err != nil {
		t.Error(err)
	}
}

// TestIndexCommitAll shows why Index reads $GIT_INDEX_FILE: during
// `git commit -a` the pre-commit hook sees the new content only in the
// temporary index git names there.
func TestIndexCommitAll(t *testing.T) {
	f := newFixture(t)
	hook := "#!/bin/sh\ncp \"$GIT_INDEX_FILE\" \"$(git rev-parse --git-common-dir)/hook-index\"\nexit 1\n"
	f.Write(".git/hooks/pre-commit", hook)
	if err := os.Chmod(filepath.Join(f.Dir, ".git", "hooks", "pre-commit"), 0o755); err != nil {
		t.Fatal(err)
	}
	f.Write("configs/agents/a.cue", "agents: a: {name: \"committed with -a\"}\n")
	if _, err := f.TryGit("commit", "-q", "-a", "-m", "refused by the hook"); err == nil {
		t.Fatal("the hook did not refuse the commit")
	}
	repo := open(t, filepath.Join(f.Dir, "configs", "agents"))
	read := func() string {
		t.Helper()
		idx, err := repo.Index()
		if err != nil {
			t.Fatal(err)
		}
		b, err := fs.ReadFile(idx, "a.cue")
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if got := read(); got != "agents: a: {name: \"A2\"}\n" {
		t.Errorf("the regular index changed: %q", got)
	}
	t.Setenv("GIT_INDEX_FILE", ".git/hook-index")
	if got := read(); got != "agents: a: {name: \"committed with -a\"}\n" {
		t.Errorf("with GIT_INDEX_FILE: %q", got)
	}
}

func TestIndexErrors(t *testing.T) {
	t.Run("unmerged", func(t *testing.T) {
		f := newFixture(t)
		f.Git("checkout", "-q", "-b", "other", "v2")
		f.Write("configs/agents/team/b.cue", "agents: b: {name: \"other\"}\n")
		f.Commit("other b")
		f.Git("checkout", "-q", "main")
		if _, err := f.TryGit("merge", "-q", "other"); err == nil {
			t.Fatal("the merge did not conflict")
		}
		repo := open(t, filepath.Join(f.Dir, "configs", "agents"))
		_, err := repo.Index()
		var ue *source.UnmergedError
		if !errors.As(err, &ue) || ue.Path != "team/b.cue" {
			t.Errorf("Index() during a conflict: got %v, want *UnmergedError for team/b.cue", err)
		}
	})
	t.Run("nothing staged", func(t *testing.T) {
		f := newFixture(t)
		repo := open(t, filepath.Join(f.Dir, "configs", "nothing"))
		_, err := repo.Index()
		var pe *source.PathNotFoundError
		if !errors.As(err, &pe) || err.Error() != "configs/nothing does not exist in the index (nothing under it is staged; stage its files with git add)" {
			t.Errorf("Index() of an unstaged directory: got %v", err)
		}
	})
	t.Run("split index", func(t *testing.T) {
		f := newFixture(t)
		f.Git("update-index", "--split-index")
		repo := open(t, filepath.Join(f.Dir, "configs", "agents"))
		_, err := repo.Index()
		var ie *source.IndexError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), "--no-split-index") {
			t.Errorf("Index() of a split index: got %v, want *IndexError naming the fix", err)
		}
	})
}

func TestEmptyRepository(t *testing.T) {
	t.Parallel()
	r := sourcetest.New(t)
	r.Write("configs/a.cue", "a: 1\n")
	r.Git("add", ".")
	repo := open(t, filepath.Join(r.Dir, "configs"))
	_, err := repo.Commit("HEAD")
	var ee *source.EmptyRepositoryError
	if !errors.As(err, &ee) {
		t.Fatalf("Commit(HEAD) in an empty repository: got %v, want *EmptyRepositoryError", err)
	}
	if want := "the repository has no commits yet (HEAD points at main, which does not exist)"; err.Error() != want {
		t.Errorf("got  %s\nwant %s", err, want)
	}
	idx, err := repo.Index()
	if err != nil {
		t.Fatalf("Index() before the first commit: %v", err)
	}
	if d := cmp.Diff(map[string]string{"a.cue": "a: 1\n"}, fsFiles(t, idx)); d != "" {
		t.Errorf("Index() (-want +got):\n%s", d)
	}
}

func TestShallowClone(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	clone := filepath.Join(t.TempDir(), "clone")
	f.Git("clone", "-q", "--depth", "1", "--branch", "main", "file://"+f.Dir, clone)
	repo := open(t, filepath.Join(clone, "configs", "agents"))
	if !repo.IsShallow() {
		t.Fatal("IsShallow() = false for a depth-1 clone")
	}
	if _, err := repo.Commit("HEAD"); err != nil {
		t.Errorf("Commit(HEAD) in a shallow clone: %v", err)
	}
	_, err := repo.Commit("HEAD~1")
	var se *source.ShallowError
	if !errors.As(err, &se) {
		t.Fatalf("Commit(HEAD~1): got %v, want *ShallowError", err)
	}
	for _, s := range []string{"git fetch --unshallow", "fetch-depth: 0", f.c[5][:7]} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("shallow error does not mention %q: %v", s, err)
		}
	}
	_, err = repo.Commit(f.c[1])
	var ue *source.UnknownRevisionError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "git fetch --unshallow") {
		t.Errorf("Commit(old hash) in a shallow clone: got %v, want *UnknownRevisionError naming --unshallow", err)
	}
}

func TestMissingAndCorruptObjects(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	blob := f.Git("rev-parse", "HEAD:configs/agents/a.cue")
	obj := filepath.Join(f.Dir, ".git", "objects", blob[:2], blob[2:])
	repo := open(t, filepath.Join(f.Dir, "configs", "agents"))
	snap, err := repo.Commit("HEAD")
	if err != nil {
		t.Fatal(err)
	}

	if err := os.Chmod(obj, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(obj, []byte("not zlib"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = fs.ReadFile(snap.FS, "a.cue")
	var oe *source.ObjectError
	if !errors.As(err, &oe) || oe.Missing || !strings.Contains(err.Error(), "git fsck") {
		t.Errorf("ReadFile of a corrupt blob: got %v, want a corrupt *ObjectError", err)
	}

	if err := os.Remove(obj); err != nil {
		t.Fatal(err)
	}
	_, err = fs.ReadFile(snap.FS, "a.cue")
	if !errors.As(err, &oe) || !oe.Missing || oe.Hash.String() != blob {
		t.Errorf("ReadFile of a missing blob: got %v, want a missing *ObjectError", err)
	}
}

func TestCommitSymlinksAndSubmodules(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	root := filepath.Join(f.Dir, "configs", "agents")
	// Same layout as symlinkTree, committed.
	f.Write("configs/outside.cue", "secret: 1\n", "configs/agents/sub/b.cue", "b: 1\n")
	f.Remove("configs/agents/team")
	f.Write("configs/agents/a.cue", "a: 1\n")
	symlink(t, "../outside.cue", filepath.Join(root, "out.cue"))
	symlink(t, "a.cue", filepath.Join(root, "in.cue"))
	symlink(t, "sub", filepath.Join(root, "indir"))
	symlink(t, "..", filepath.Join(root, "up"))
	symlink(t, "/etc/passwd", filepath.Join(root, "sub", "abs.cue"))
	f.Git("add", "-A")
	f.Git("update-index", "--add", "--cacheinfo", "160000,"+f.c[0]+",configs/agents/module")
	f.Git("commit", "-q", "-m", "links")

	repo := open(t, root)
	snap, err := repo.Commit("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	checkSymlinks(t, snap.FS, "/etc/passwd")
	idx, err := repo.Index()
	if err != nil {
		t.Fatal(err)
	}
	checkSymlinks(t, idx, "/etc/passwd")
	wt, err := source.Dir(root)
	if err != nil {
		t.Fatal(err)
	}
	checkSymlinks(t, wt, "/etc/passwd")
}

func TestClosed(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	repo, err := source.Open(filepath.Join(f.Dir, "configs", "agents"))
	if err != nil {
		t.Fatal(err)
	}
	snap, err := repo.Commit("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if err := repo.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := fs.ReadFile(snap.FS, "a.cue"); !errors.Is(err, source.ErrClosed) {
		t.Errorf("ReadFile after Close: got %v, want ErrClosed", err)
	}
}

func TestConcurrentReads(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	repo := open(t, filepath.Join(f.Dir, "configs", "agents"))
	want := map[string]map[string]string{}
	revs := []string{"HEAD", "v1", "v2", "side"}
	for _, rev := range revs {
		want[rev] = gitFiles(t, f.Repo, rev, "configs/agents")
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for i := range 16 {
		wg.Go(func() {
			rev := revs[i%len(revs)]
			snap, err := repo.Commit(rev)
			if err != nil {
				errs <- err.Error()
				return
			}
			for p, content := range want[rev] {
				b, err := fs.ReadFile(snap.FS, p)
				if err != nil || string(b) != content {
					errs <- rev + ":" + p + ": " + string(b)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestExtensions(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.Git("config", "core.repositoryFormatVersion", "1")
	f.Git("config", "extensions.worktreeConfig", "true")
	repo := open(t, filepath.Join(f.Dir, "configs", "agents"))
	if _, err := repo.Commit("HEAD"); err != nil {
		t.Errorf("with extensions.worktreeConfig: %v", err)
	}
	f.Git("config", "extensions.refStorage", "reftable")
	_, err := source.Open(f.Dir)
	if err == nil || !strings.Contains(err.Error(), "extension refStorage") {
		t.Errorf("with extensions.refStorage: got %v, want an error naming the extension", err)
	}
}

func TestPartialClone(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.Git("config", "uploadpack.allowFilter", "true")
	clone := filepath.Join(t.TempDir(), "clone")
	f.Git("clone", "-q", "--filter=blob:none", "--branch", "main", "file://"+f.Dir, clone)
	repo := open(t, filepath.Join(clone, "configs", "agents"))
	head, err := repo.Commit("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fs.ReadFile(head.FS, "a.cue"); err != nil {
		t.Errorf("a blob the checkout fetched: %v", err)
	}
	old, err := repo.Commit("v1")
	if err != nil {
		t.Fatal(err)
	}
	_, err = fs.ReadFile(old.FS, "a.cue")
	var oe *source.ObjectError
	if !errors.As(err, &oe) || !oe.Partial || !strings.Contains(err.Error(), "partial clone") {
		t.Errorf("a blob the partial clone lacks: got %v, want *ObjectError with Partial", err)
	}
}
