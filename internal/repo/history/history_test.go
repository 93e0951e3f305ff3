package history_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/repo/history"
	"github.com/charter-dev/charter/internal/repo/source"
	"github.com/charter-dev/charter/internal/repo/source/sourcetest"
)

func open(t testing.TB, dir string) *source.Repo {
	t.Helper()
	repo, err := source.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { repo.Close() })
	return repo
}

// gitLog returns what git log --format=%H REV -- ROOT prints.
func gitLog(t testing.TB, r *sourcetest.Repo, rev, root string) []string {
	t.Helper()
	out := r.Git("log", "--format=%H", rev, "--", root)
	if out == "" {
		return nil
	}
	return strings.Split(out, "\n")
}

func walk(t testing.TB, repo *source.Repo, rev, root string) ([]string, []*history.Entry) {
	t.Helper()
	var hashes []string
	var entries []*history.Entry
	err := history.Walk(repo, rev, root, func(e *history.Entry) error {
		hashes = append(hashes, e.Commit.String())
		entries = append(entries, e)
		return nil
	})
	if err != nil {
		t.Fatalf("Walk(%s, %s): %v", rev, root, err)
	}
	return hashes, entries
}

// TestWalkMerges builds a history with porcelain commands and compares the
// walk with git log.
func TestWalkMerges(t *testing.T) {
	t.Parallel()
	r := sourcetest.New(t)
	r.Write("other/x.txt", "0\n")
	r.Commit("outside only, before the root exists")
	r.Write("config/a.cue", "a: 1\n")
	r.Commit("add a")

	r.Git("checkout", "-q", "-b", "feat")
	r.Write("config/b.cue", "b: 1\n")
	r.Commit("feat: add b")
	r.Write("other/x.txt", "1\n")
	r.Commit("feat: outside only")
	r.Git("checkout", "-q", "main")
	r.Write("config/a.cue", "a: 2\n")
	r.Commit("main: change a")
	r.Git("merge", "-q", "--no-ff", "-m", "merge feat: combines both sides", "feat")

	r.Git("checkout", "-q", "-b", "side")
	r.Write("config/c.cue", "c: 1\n")
	r.Commit("side: add c")
	r.Git("checkout", "-q", "main")
	r.Write("other/x.txt", "2\n")
	r.Commit("main: outside only")
	r.Git("merge", "-q", "--no-ff", "-m", "merge side: takes side's config tree", "side")

	r.Git("checkout", "-q", "-b", "dropped")
	r.Write("config/d.cue", "d: 1\n")
	r.Commit("dropped: add d, never merged in")
	r.Git("checkout", "-q", "main")
	r.Git("merge", "-q", "-s", "ours", "-m", "merge -s ours: keeps main's tree", "dropped")

	r.Write("config/a.cue", "a: 1\n")
	r.Commit("back to an earlier a")
	r.Git("revert", "--no-edit", "HEAD")
	r.Git("rm", "-q", "-r", "config")
	r.Commit("remove the root")
	r.Write("config/a.cue", "a: 1\n")
	r.Commit("re-create the root")

	// An octopus that brings in one change.
	r.Git("checkout", "-q", "-b", "o1")
	r.Write("config/o1.cue", "o: 1\n")
	r.Commit("o1")
	r.Git("checkout", "-q", "-b", "o2", "main")
	r.Write("other/o2.txt", "o2\n")
	r.Commit("o2 outside")
	r.Git("checkout", "-q", "main")
	r.Git("merge", "-q", "--no-ff", "-m", "octopus", "o1", "o2")

	repo := open(t, r.Dir)
	for _, root := range []string{"config", "config/", "other", "."} {
		for _, rev := range []string{"main", "feat", "side", "dropped", "main~3"} {
			got, _ := walk(t, repo, rev, root)
			want := gitLog(t, r, rev, root)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("Walk(%s, %s) (-git log +walk):\n%s", rev, root, d)
			}
		}
	}
	_, entries := walk(t, repo, "main", "config")
	var subjects []string
	for _, e := range entries {
		subjects = append(subjects, e.Subject)
	}
	want := []string{
		"o1", "re-create the root", "remove the root", `Revert "back to an earlier a"`, "back to an earlier a",
		"side: add c", "merge feat: combines both sides", "main: change a", "feat: add b", "add a",
	}
	if d := cmp.Diff(want, subjects); d != "" {
		t.Errorf("subjects (-want +got):\n%s", d)
	}
	for _, e := range entries {
		if e.Subject == "remove the root" && !e.Tree.IsZero() {
			t.Errorf("the entry removing the root has tree %s, want zero", e.Tree)
		}
		if e.Subject == "add a" && e.Tree.String() != r.Git("rev-parse", e.Commit.String()+":config") {
			t.Errorf("Tree of %q = %s", e.Subject, e.Tree)
		}
	}
}

// TestWalkGenerated compares the walk with git log on random histories with
// merges, octopus merges, deleted and re-created roots, tied and skewed
// commit times, with and without a commit-graph file.
func TestWalkGenerated(t *testing.T) {
	for seed := range uint64(short(6, 2)) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			hs := genHistory(seed, 150)
			r := importHistory(t, hs)
			branches := strings.Fields(r.Git("for-each-ref", "--format=%(refname:short)", "refs/heads"))
			check := func(repo *source.Repo) {
				for _, rev := range branches {
					for _, root := range []string{"config", "config/agents", "other", "."} {
						got, _ := walk(t, repo, rev, root)
						want := gitLog(t, r, rev, root)
						if d := cmp.Diff(want, got); d != "" {
							t.Fatalf("seed %d: Walk(%s, %s) (-git log +walk):\n%s", seed, rev, root, d)
						}
					}
				}
			}
			check(open(t, r.Dir))
			r.Git("commit-graph", "write", "--reachable")
			check(open(t, r.Dir))
		})
	}
}

func TestEntryMetadata(t *testing.T) {
	t.Parallel()
	r := sourcetest.New(t)
	r.Write("config/a.cue", "a: 1\n")
	r.Git("add", ".")
	r.Git("commit", "-q", "-m", "Add agent a\n\nWhy it matters.\n\nReviewed-by: Rae <rae@example.com>\nApproved-by: Abe <abe@example.com>\nreviewed-by: Ria <ria@example.com>\nSigned-off-by: Ada Author <ada@example.com>")
	// A commit with a gpgsig header, made by hand: charter reports that a
	// signature is there, never whether it is valid.
	parent := r.Git("rev-parse", "HEAD")
	r.Write("config/a.cue", "a: 2\n")
	r.Git("add", ".")
	tree := r.Git("write-tree")
	raw := "tree " + tree + "\nparent " + parent + "\n" +
		"author Ada Author <ada@example.com> 1735787045 +0100\n" +
		"committer Cy Committer <cy@example.com> 1735787045 +0100\n" +
		"gpgsig -----BEGIN SSH SIGNATURE-----\n U1NIU0lHAAAAAQ==\n -----END SSH SIGNATURE-----\n" +
		"\nSigned change\n"
	signed := r.GitStdin(raw, "hash-object", "-t", "commit", "-w", "--stdin")
	r.Git("update-ref", "refs/heads/main", signed)

	repo := open(t, filepath.Join(r.Dir, "config"))
	_, entries := walk(t, repo, "HEAD", repo.ConfigPath())
	if len(entries) != 2 {
		t.Fatalf("got %d entries, want 2", len(entries))
	}
	type meta struct {
		Subject, Signature      string
		ReviewedBy, ApprovedBy  []string
		AuthorName, AuthorEmail string
		CommitterName           string
		CommitterTime           string
		Parents                 int
	}
	var got []meta
	for _, e := range entries {
		got = append(got, meta{e.Subject, e.Signature.String(), e.ReviewedBy, e.ApprovedBy, e.Author.Name, e.Author.Email,
			e.Committer.Name, e.Committer.When.Format("2006-01-02 15:04:05 -0700"), len(e.Parents)})
	}
	want := []meta{
		{"Signed change", "signed", nil, nil, "Ada Author", "ada@example.com", "Cy Committer", "2025-01-02 04:04:05 +0100", 1},
		{"Add agent a", "unsigned", []string{"Rae <rae@example.com>", "Ria <ria@example.com>"}, []string{"Abe <abe@example.com>"},
			"Ada Author", "ada@example.com", "Cy Committer", "2025-01-02 03:06:05 +0000", 0},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("entries (-want +got):\n%s", d)
	}
}

// TestEntryNotDir: a commit where the config root is a file is an entry
// whose Tree is the file's blob, marked NotDir.
func TestEntryNotDir(t *testing.T) {
	t.Parallel()
	r := sourcetest.New(t)
	r.Write("config/a.cue", "a: 1\n")
	r.Commit("a directory")
	r.Remove("config")
	r.Write("config", "a file\n")
	r.Commit("a file")
	r.Remove("config")
	r.Write("config/a.cue", "a: 2\n")
	r.Commit("a directory again")
	_, entries := walk(t, open(t, r.Dir), "HEAD", "config")
	type entry struct {
		Subject, Tree string
		NotDir        bool
	}
	var got []entry
	for _, e := range entries {
		got = append(got, entry{e.Subject, e.Tree.String(), e.NotDir})
	}
	want := []entry{
		{"a directory again", r.Git("rev-parse", "HEAD:config"), false},
		{"a file", r.Git("rev-parse", "HEAD~1:config"), true},
		{"a directory", r.Git("rev-parse", "HEAD~2:config"), false},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("entries (-want +got):\n%s", d)
	}
}

func TestWalkStop(t *testing.T) {
	t.Parallel()
	r := importHistory(t, genHistory(42, 60))
	repo := open(t, r.Dir)
	want := gitLog(t, r, "main", "config")
	if len(want) < 3 {
		t.Fatalf("the generated history has only %d versions", len(want))
	}
	var got []string
	err := history.Walk(repo, "main", "config", func(e *history.Entry) error {
		got = append(got, e.Commit.String())
		if len(got) == 2 {
			return history.SkipAll
		}
		return nil
	})
	if err != nil || !cmp.Equal(want[:2], got) {
		t.Errorf("Walk stopped after 2: %v, %v; want %v", got, err, want[:2])
	}
	got = nil
	for e, err := range history.All(repo, "main", "config") {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, e.Commit.String())
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("All (-git log +all):\n%s", d)
	}
	boom := errors.New("boom")
	if err := history.Walk(repo, "main", "config", func(*history.Entry) error { return boom }); err != boom {
		t.Errorf("Walk returned %v, want the callback's error", err)
	}
}

func TestWalkShallow(t *testing.T) {
	t.Parallel()
	r := importHistory(t, genHistory(7, 80))
	clone := filepath.Join(t.TempDir(), "clone")
	r.Git("clone", "-q", "--depth", "5", "--branch", "main", "file://"+r.Dir, clone)
	repo := open(t, clone)
	var got []string
	err := history.Walk(repo, "HEAD", "config", func(e *history.Entry) error {
		got = append(got, e.Commit.String())
		return nil
	})
	var se *source.ShallowError
	if !errors.As(err, &se) {
		t.Fatalf("Walk in a shallow clone: got %v, want *ShallowError", err)
	}
	if !strings.Contains(err.Error(), "git fetch --unshallow") || !strings.Contains(err.Error(), "fetch-depth: 0") {
		t.Errorf("the error does not name the fix: %v", err)
	}
	// What was delivered before the boundary is right.
	full := gitLog(t, r, "main", "config")
	if len(got) > len(full) || !cmp.Equal(full[:len(got)], got) {
		t.Errorf("entries before the boundary %v are not a prefix of %v", got, full)
	}
	// Stopping before the boundary is no error.
	if len(got) > 0 {
		err := history.Walk(repo, "HEAD", "config", func(*history.Entry) error { return history.SkipAll })
		if err != nil {
			t.Errorf("stopping before the boundary: %v", err)
		}
	}
}

func TestWalkErrors(t *testing.T) {
	t.Parallel()
	r := importHistory(t, genHistory(3, 10))
	repo := open(t, r.Dir)
	noop := func(*history.Entry) error { return nil }
	var ue *source.UnknownRevisionError
	if err := history.Walk(repo, "v9", "config", noop); !errors.As(err, &ue) {
		t.Errorf("unknown revision: got %v", err)
	}
	var se *source.UnsupportedRevisionError
	if err := history.Walk(repo, "HEAD@{1}", "config", noop); !errors.As(err, &se) {
		t.Errorf("unsupported revision: got %v", err)
	}
	for _, root := range []string{"../x", "/config", "a//b"} {
		if err := history.Walk(repo, "HEAD", root, noop); err == nil {
			t.Errorf("Walk with root %q succeeded", root)
		}
	}
	empty := sourcetest.New(t)
	var ee *source.EmptyRepositoryError
	if err := history.Walk(open(t, empty.Dir), "HEAD", "config", noop); !errors.As(err, &ee) {
		t.Errorf("empty repository: got %v", err)
	}
}

// TestWalkCommitGraphs checks the walk with a split commit-graph chain and
// with a damaged commit-graph file, which must be ignored, not trusted.
func TestWalkCommitGraphs(t *testing.T) {
	t.Parallel()
	r := importHistory(t, genHistory(11, 120))
	want := gitLog(t, r, "main", "config")
	check := func(what string) {
		t.Helper()
		got, _ := walk(t, open(t, r.Dir), "main", "config")
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s (-git log +walk):\n%s", what, d)
		}
	}
	r.Git("commit-graph", "write", "--reachable", "--split")
	check("split commit-graph")

	r.Git("commit-graph", "write", "--reachable", "--split=replace")
	r.Git("commit-graph", "write", "--reachable")
	graph := filepath.Join(r.Dir, ".git", "objects", "info", "commit-graph")
	b, err := os.ReadFile(graph)
	if err != nil {
		t.Fatal(err)
	}
	// Point every commit's first parent at the first commit of the graph
	// and zero its time: the walk would go astray if it trusted the file.
	cdat, end := graphChunk(t, b, "CDAT")
	for i := cdat; i+36 <= end; i += 36 {
		if b[i+20]&0x70 != 0x70 {
			copy(b[i+20:i+24], []byte{0, 0, 0, 0})
		}
		copy(b[i+28:i+36], make([]byte, 8))
	}
	if err := os.Chmod(graph, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(graph, b, 0o644); err != nil {
		t.Fatal(err)
	}
	check("damaged commit-graph")
}

// graphChunk returns the start and end offsets of a chunk of a
// commit-graph file.
func graphChunk(t *testing.T, b []byte, id string) (start, end int) {
	t.Helper()
	n := int(b[6])
	for i := range n {
		e := b[8+12*i:]
		if string(e[:4]) == id {
			start = int(binary.BigEndian.Uint64(e[4:12]))
			end = int(binary.BigEndian.Uint64(e[16:24]))
			return start, end
		}
	}
	t.Fatalf("no %s chunk", id)
	return 0, 0
}

// TestWalkPruned: with a commit-graph file, the walk forgets the commits
// no commit still to come can queue again (by their generation numbers);
// pruning at every step, it still lists what git log lists, on random
// histories with merges and skewed commit times, with a commit-graph file
// of every commit, of the older ones only, and none. (TestLogMemory
// checks that it remembers next to nothing of a long history.)
func TestWalkPruned(t *testing.T) {
	for seed := range uint64(short(4, 1)) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			hs := genHistory(seed, 200)
			r := importHistory(t, hs)
			branches := strings.Fields(r.Git("for-each-ref", "--format=%(refname:short)", "refs/heads"))
			commits, _ := strconv.Atoi(r.Git("rev-list", "--count", "--all"))
			check := func(graph string) (most int) {
				repo := open(t, r.Dir)
				for _, rev := range branches {
					for _, root := range []string{"config", "."} {
						var got []string
						n, err := history.WalkPruned(repo, rev, root, func(e *history.Entry) error {
							got = append(got, e.Commit.String())
							return nil
						})
						if err != nil {
							t.Fatal(err)
						}
						most = max(most, n)
						if d := cmp.Diff(gitLog(t, r, rev, root), got); d != "" {
							t.Fatalf("%s: WalkPruned(%s, %s) (-git log +walk):\n%s", graph, rev, root, d)
						}
					}
				}
				return most
			}
			without := check("no commit-graph")
			old := r.Git("rev-list", "--all", "--skip=60", "-n", "1")
			r.GitStdin(old+"\n", "commit-graph", "write", "--stdin-commits")
			check("commit-graph of the older commits")
			r.Git("commit-graph", "write", "--reachable")
			if n := check("commit-graph"); n > without {
				t.Errorf("the walk held %d of %d commits, %d without a commit-graph", n, commits, without)
			}
		})
	}
}
