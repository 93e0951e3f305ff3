package evalcache_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/charter-dev/charter/internal/config/evalcache"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/testkit/gen"
)

// TestCachedLintEqualsFresh: after random sequences of edits of a
// generated repository (budgets, managers, delegates, personalities,
// types and presets that make other declarations used or unused, ignore
// comments, option typos that stop lint, renamed agents, syntax errors,
// agents added and removed, edits of a file that declares more than
// agents, undos), lint through the cache gives exactly what a fresh lint
// gives, and most edits are evaluated incrementally.
func TestCachedLintEqualsFresh(t *testing.T) {
	agents, edits, seeds := 120, 30, uint64(1)
	if !testing.Short() {
		agents, edits, seeds = 300, 50, 2
	}
	for seed := range seeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { cachedEqualsFresh(t, agents, edits, seed, false) })
	}
}

// TestCachedLintStagedEqualsFresh is TestCachedLintEqualsFresh for lint
// --staged: every edit staged, the files known by their blob ids.
func TestCachedLintStagedEqualsFresh(t *testing.T) {
	agents, edits := 80, 15
	if !testing.Short() {
		agents, edits = 200, 40
	}
	cachedEqualsFresh(t, agents, edits, 7, true)
}

func cachedEqualsFresh(t *testing.T, agents, edits int, seed uint64, staged bool) {
	evalcache.SetMaxScope(1) // small repositories: redo whatever is in scope
	defer evalcache.SetMaxScope(4)
	root := t.TempDir()
	cache := t.TempDir()
	if err := gen.Write(root, agents); err != nil {
		t.Fatal(err)
	}
	repo := gen.Files{T: t, Root: root}
	write, read := repo.Write, repo.Read
	if err := gen.WriteExtra(root, agents); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 30))
	id := func() string { return fmt.Sprintf("a%04d", r.IntN(agents)) }
	files := []string{"agents/a0001.cue", "agents/a0005.cue", "agents/" + id() + ".cue", "agents/" + id() + ".cue", "agents/" + id() + ".cue"}
	mutators, breaking := gen.Mutators(r, agents)
	texts := map[string][]string{}
	for _, rel := range files {
		texts[rel] = []string{read(rel)}
	}

	revSrc := revision.Source{Dir: root, Staged: staged}
	stage := func() {}
	if staged {
		repo, err := git.PlainInit(root, false)
		if err != nil {
			t.Fatal(err)
		}
		wt, err := repo.Worktree()
		if err != nil {
			t.Fatal(err)
		}
		stage = func() {
			t.Helper()
			if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
				t.Fatal(err)
			}
		}
		stage()
	}
	cached := func() (*evalcache.Outcome, string) {
		t.Helper()
		stage()
		var log bytes.Buffer
		out, err := evalcache.Lint(revSrc, evalcache.Options{Dir: cache, Log: &log})
		if err != nil {
			t.Fatal(err)
		}
		return out, log.String()
	}
	fresh := func() *evalcache.Outcome {
		t.Helper()
		out, err := evalcache.Lint(revSrc, evalcache.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	check := func(step string) string {
		t.Helper()
		got, log := cached()
		if d := cmp.Diff(fresh(), got, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("%s: lint through the cache differs from a fresh lint (-fresh +cached):\n%s\ncache: %s", step, d, log)
		}
		return log
	}
	check("first run")

	incremental, added := 0, 0
	fix := ""
	for i := range edits {
		step := ""
		switch k := r.IntN(20); {
		case k == 0: // a file that declares more than agents: a preset more or less
			src := read("extra.cue")
			if strings.Contains(src, "spare") {
				src = strings.Replace(src, "presets: spare: behavior: {}\n", "", 1)
			} else {
				src += "presets: spare: behavior: {}\n"
			}
			write("extra.cue", src)
			step = "extra.cue"
		case k == 1: // a new agent in a new file
			added++
			rel := fmt.Sprintf("agents/new%d.cue", added)
			src := regexp.MustCompile(`agents: a\d+`).ReplaceAllString(texts[files[0]][0], fmt.Sprintf("agents: n%04d", added))
			write(rel, src)
			step = "added " + rel
		case k == 2 && added > 0: // an added agent removed
			rel := fmt.Sprintf("agents/new%d.cue", r.IntN(added)+1)
			os.Remove(filepath.Join(root, filepath.FromSlash(rel)))
			step = "removed " + rel
		default:
			rel := files[r.IntN(len(files))]
			undoFix := fix != "" && r.IntN(4) > 0
			if undoFix {
				rel = fix
			}
			fix = ""
			hist := texts[rel]
			var next string
			switch k := r.IntN(10); {
			case undoFix || k < 2 && len(hist) > 1:
				next = hist[len(hist)-2]
			case k < 3 && len(hist) > 1:
				next = hist[r.IntN(len(hist)-1)]
			default:
				m := r.IntN(len(mutators))
				if m >= breaking && r.IntN(3) > 0 {
					m = r.IntN(breaking)
				}
				next = mutators[m](hist[len(hist)-1])
				if m >= breaking {
					fix = rel
				}
			}
			texts[rel] = append(hist, next)
			write(rel, next)
			step = "edit of " + rel
		}
		log := check(fmt.Sprintf("edit %d (%s)", i, step))
		if os.Getenv("DEBUG_CACHE") != "" {
			t.Logf("edit %d (%s): %s", i, step, log)
		}
		if strings.Contains(log, "evaluated") && !strings.Contains(log, "in full") {
			incremental++
		}
	}
	// Again without a change: the last outcome, nothing evaluated.
	if _, log := cached(); !strings.Contains(log, "last run") && !strings.Contains(log, "as in the base") {
		t.Errorf("a run over the same files: %s, want the stored outcome", log)
	}
	if incremental < edits/4 {
		t.Errorf("%d of %d edits evaluated incrementally, want most of them", incremental, edits)
	}
	t.Logf("%d of %d edits incremental", incremental, edits)
}

// TestDamagedEntries: an entry cut short, flipped or written by another
// build is a miss, and the outcome is still a fresh lint's.
func TestDamagedEntries(t *testing.T) {
	root, cache := t.TempDir(), t.TempDir()
	if err := gen.Write(root, 20); err != nil {
		t.Fatal(err)
	}
	revSrc := revision.Source{Dir: root}
	want, err := evalcache.Lint(revSrc, evalcache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	run := func() string {
		t.Helper()
		var log bytes.Buffer
		got, err := evalcache.Lint(revSrc, evalcache.Options{Dir: cache, Log: &log})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("differs from a fresh lint (-fresh +cached):\n%s", d)
		}
		return log.String()
	}
	run()
	entries, _ := filepath.Glob(filepath.Join(cache, "*"))
	if len(entries) == 0 {
		t.Fatal("no entry written")
	}
	for _, e := range entries {
		fi, err := os.Stat(e)
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want 0600", e, fi.Mode().Perm())
		}
	}
	damage := map[string]func([]byte) []byte{
		"truncated": func(b []byte) []byte { return b[:len(b)/2] },
		"flipped":   func(b []byte) []byte { b[len(b)/2] ^= 1; return b },
		"empty":     func([]byte) []byte { return nil },
		"foreign": func(b []byte) []byte {
			return bytes.Replace(b, []byte("charter-evalcache-1"), []byte("charter-evalcache-0"), 1)
		},
	}
	for name, f := range damage {
		for _, e := range entries {
			b, err := os.ReadFile(e)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(e, f(b), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		if log := run(); !strings.Contains(log, "in full") {
			t.Errorf("%s entries: %q, want a full evaluation", name, log)
		}
	}
	// An entry others may write is not trusted, whatever it holds.
	run()
	for _, e := range entries {
		if err := os.Chmod(e, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	if log := run(); !strings.Contains(log, "in full") {
		t.Errorf("entries others may write: %q, want a full evaluation", log)
	}
}

// TestConcurrentRuns: runs that read and write one cache at the same
// time (two pre-commit hooks, an editor's terminal) each get a fresh
// lint's outcome, whatever the others wrote meanwhile.
func TestConcurrentRuns(t *testing.T) {
	root, cache := t.TempDir(), t.TempDir()
	if err := gen.Write(root, 30); err != nil {
		t.Fatal(err)
	}
	src := revision.Source{Dir: root}
	want, err := evalcache.Lint(src, evalcache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			got, err := evalcache.Lint(src, evalcache.Options{Dir: cache})
			if err == nil {
				if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
					err = fmt.Errorf("differs from a fresh lint (-fresh +cached):\n%s", d)
				}
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	left, _ := filepath.Glob(filepath.Join(cache, ".*tmp*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestPlantedFolder: a cache folder that is a link (planted in a shared
// CHARTER_CACHE_DIR) is neither read nor written through: what it points
// at stays as it was.
func TestPlantedFolder(t *testing.T) {
	root, top, elsewhere := t.TempDir(), t.TempDir(), t.TempDir()
	if err := gen.Write(root, 5); err != nil {
		t.Fatal(err)
	}
	t.Setenv(evalcache.EnvDir, top)
	dir, ok := evalcache.Dir(root)
	if !ok {
		t.Fatal("no cache folder")
	}
	if err := os.Chmod(elsewhere, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, dir); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	if _, err := evalcache.Lint(revision.Source{Dir: root}, evalcache.Options{Dir: dir, Log: &log}); err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(elsewhere); len(left) > 0 {
		t.Errorf("written through a link: %v", left)
	}
	if fi, err := os.Stat(elsewhere); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("the folder a link points at changed mode: %v %v", fi.Mode(), err)
	}
	if !strings.Contains(log.String(), "not written") {
		t.Errorf("log %q, want a note that nothing was written", log.String())
	}
}
