package evalcache_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/charter-dev/charter/internal/config/evalcache"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/testkit/gen"
)

// extra gives the generated repository declarations that one agent's edit
// can make used or unused (lint.Global's rules).
const extra = `package charter

presets: rare: behavior: communication: verbosity: "detailed"

agentTypes: solo: {
	name:          "Solo"
	description:   "Works alone."
	system_prompt: "You are {agent.name}, {agent.role}."
}

categories: communication: settings: verbosity: options: chatty: text: "Say everything twice."
`

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
	write := func(rel, src string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(rel string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	write("extra.cue", extra)
	// One agent outside the edited files uses the extra declarations.
	outside := fmt.Sprintf("agents/a%04d.cue", agents-1)
	src := read(outside)
	if strings.Contains(src, "presets: [") {
		src = strings.Replace(src, "presets: [", "presets: [\"rare\", ", 1)
	} else {
		src = strings.Replace(src, "\tbehaviors: [", "\tpresets: [\"rare\"]\n\tbehaviors: [", 1)
	}
	write(outside, regexp.MustCompile(`verbosity: "[a-z]+"`).ReplaceAllString(src, `verbosity: "chatty"`))

	r := rand.New(rand.NewPCG(seed, 30))
	id := func() string { return fmt.Sprintf("a%04d", r.IntN(agents)) }
	files := []string{"agents/a0001.cue", "agents/a0005.cue", "agents/" + id() + ".cue", "agents/" + id() + ".cue", "agents/" + id() + ".cue"}
	own := func(src string) int {
		if m := regexp.MustCompile(`agents: a(\d+)`).FindStringSubmatch(src); m != nil {
			k, _ := strconv.Atoi(m[1])
			return k
		}
		return 0
	}
	sub := func(src, re string, repl func(m string) string) string {
		return regexp.MustCompile(re).ReplaceAllStringFunc(src, repl)
	}
	mutators := []func(string) string{
		func(s string) string {
			return sub(s, `budget_limit: \d+`, func(string) string { return fmt.Sprintf("budget_limit: %d", r.IntN(120)) })
		},
		func(s string) string {
			return sub(s, `reports_to: "[^"]*"`, func(string) string { return fmt.Sprintf("reports_to: %q", id()) })
		},
		func(s string) string {
			return sub(s, `can_delegate_to: \[[^\]]*\]`, func(string) string { return fmt.Sprintf("can_delegate_to: [%q, %q]", id(), id()) })
		},
		func(s string) string {
			return sub(s, `(openness|agreeableness|conscientiousness): [0-9.]+`, func(m string) string {
				k, _, _ := strings.Cut(m, ":")
				return fmt.Sprintf("%s: %.2f", k, r.Float64())
			})
		},
		func(s string) string {
			return sub(s, `\n\ttype: +"[a-z]+"`, func(string) string { return "\n\ttype: \"solo\"" })
		},
		func(s string) string {
			return strings.Replace(s, "\tbehaviors: [", "\tpresets: [\"rare\"]\n\tbehaviors: [", 1)
		},
		func(s string) string {
			return sub(s, `verbosity: "[a-z]+"`, func(string) string { return `verbosity: "chatty"` })
		},
		func(s string) string {
			return strings.Replace(s, "\t\tbudget_limit:", "\t\t// charter:ignore budget-exceeds-manager TODO: the test says why\n\t\tbudget_limit:", 1)
		},
		func(s string) string { // a reporting cycle of three
			k := own(s)
			return sub(s, `reports_to: "[^"]*"`, func(string) string { return fmt.Sprintf("reports_to: \"a%04d\"", (16*k+5)%agents) })
		},
		func(s string) string { // a delegation cycle of three
			k := own(s)
			return sub(s, `can_delegate_to: \[`, func(m string) string { return fmt.Sprintf("%s\"a%04d\", ", m, max(0, ((k-1)/4-1)/4)) })
		},
		// Breaking ones last.
		func(s string) string { return strings.Replace(s, `verbosity: "`, `verbosity: "x`, 1) },
		func(s string) string { return sub(s, `agents: a\d+`, func(m string) string { return m + "x" }) },
		func(s string) string { return sub(s, `agents: a\d+`, func(string) string { return "agents: " + id() }) },
		func(s string) string { return strings.TrimSuffix(strings.TrimRight(s, "\n"), "}") },
	}
	breaking := len(mutators) - 4
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
			src := sub(texts[files[0]][0], `agents: a\d+`, func(string) string { return fmt.Sprintf("agents: n%04d", added) })
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
