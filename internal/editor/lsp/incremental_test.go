package lsp

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/output/secret"
	"github.com/charter-dev/charter/internal/repo/source"
	"github.com/charter-dev/charter/internal/testkit/gen"
	"github.com/charter-dev/charter/lint"
)

// TestIncrementalEqualsLint: after random sequences of edits of agents'
// files on a generated repository (budgets, managers, delegates, option
// typos, renamed and removed agents, types and presets that make other
// declarations used or unused, ignore comments, syntax errors, undos),
// the diagnostics the client holds equal those of a fresh charter lint of
// the same text, file by file, and every edit is evaluated incrementally.
func TestIncrementalEqualsLint(t *testing.T) {
	agents, edits, seeds := 150, 30, uint64(1)
	if !testing.Short() {
		agents, edits, seeds = 300, 50, 3
	}
	for seed := range seeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { incrementalEquals(t, agents, edits, seed) })
	}
}

func incrementalEquals(t *testing.T, agents, edits int, seed uint64) {
	root := t.TempDir()
	if err := gen.Write(root, agents); err != nil {
		t.Fatal(err)
	}
	if err := gen.WriteExtra(root, agents); err != nil {
		t.Fatal(err)
	}
	c := start(t, root, func(o *Options) { o.FastAfter, o.FullDelay = -1, time.Hour })
	c.wait()
	r := rand.New(rand.NewPCG(seed, 30))
	id := func() string { return fmt.Sprintf("a%04d", r.IntN(agents)) }
	// A few files, a manager and a manager of managers among them, so
	// that edits meet each other's agents.
	files := []string{"agents/a0001.cue", "agents/a0005.cue", "agents/" + id() + ".cue", "agents/" + id() + ".cue", "agents/" + id() + ".cue"}
	texts := map[string][]string{} // every text each file had, for undos
	for _, rel := range files {
		if texts[rel] == nil {
			src := c.read(rel)
			texts[rel] = []string{src}
			c.open(rel, src)
			c.wait()
		}
	}
	mutators, breaking := gen.Mutators(r, agents)
	fix := ""
	broken := map[string]bool{}
	for i := range edits {
		rel := files[r.IntN(len(files))]
		undoFix := fix != "" && r.IntN(4) > 0
		if undoFix {
			rel = fix
		}
		fix = ""
		hist := texts[rel]
		var next string
		switch k := r.IntN(10); {
		case undoFix || k < 2 && len(hist) > 1: // undo the last edit
			next = hist[len(hist)-2]
		case k < 3 && len(hist) > 1: // undo to an earlier text that validated
			next = hist[r.IntN(len(hist)-1)]
			if broken[next] {
				next = hist[0]
			}
		default:
			m := r.IntN(len(mutators))
			if m >= breaking && r.IntN(3) > 0 {
				m = r.IntN(breaking)
			}
			next = mutators[m](hist[len(hist)-1])
			if m >= breaking {
				fix = rel
				broken[next] = true
			}
		}
		texts[rel] = append(hist, next)
		before := c.srv.fastRuns.Load()
		c.change(rel, next)
		c.wait()
		if c.srv.fastRuns.Load() != before+1 {
			t.Fatalf("edit %d of %s: evaluated in full, want incrementally", i, rel)
		}
		open := map[string]string{}
		for rel, h := range texts {
			open[rel] = h[len(h)-1]
		}
		want := freshLint(t, root, open)
		got := c.all2(root)
		if os.Getenv("DEBUG_INC") != "" {
			t.Logf("edit %d: %d files in the editor, %d in lint; %d in editor for %s %v", i, len(got), len(want), len(got[rel]), rel, want)
		}
		if d := diffDiags(got, want); d != "" {
			t.Fatalf("edit %d of %s (%d lines): the editor's diagnostics differ from charter lint's:\n%s\ntext:\n%s", i, rel, strings.Count(next, "\n"), d, next)
		}
	}
}

// all2 returns the client's diagnostics by root-relative file, one line
// each.
func (c *client) all2(root string) map[string][]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string][]string{}
	for uri, ds := range c.diags {
		rel, err := filepath.Rel(root, strings.TrimPrefix(uri, "file://"))
		if err != nil {
			c.t.Fatal(err)
		}
		for _, d := range ds {
			out[filepath.ToSlash(rel)] = append(out[filepath.ToSlash(rel)], fmt.Sprintf("%d: %s: %s", d.Range.Start.Line+1, d.Code, d.Message))
		}
	}
	return out
}

// freshLint is charter lint's diagnostics on root with the buffers over
// it, by file, as all2 gives them.
func freshLint(t *testing.T, root string, open map[string]string) map[string][]string {
	t.Helper()
	base, err := revision.Worktree(root)
	if err != nil {
		t.Fatal(err)
	}
	var ev revision.Evaluator
	rev, err := ev.EvaluateFS(&source.Overlay{Ctx: context.Background(), Base: base, Files: open}, root)
	if err != nil {
		t.Fatal(err)
	}
	ds := rev.Diagnostics
	if rev.OK() {
		found, err := lint.Run(rev.Program, rev.Validation.Repo().Files, lint.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, found...)
	}
	out := map[string][]string{}
	for _, d := range ds {
		out[d.File] = append(out[d.File], fmt.Sprintf("%d: %s: %s", d.Line, d.Rule, secret.Redact(d.Message)))
	}
	return out
}

func diffDiags(got, want map[string][]string) string {
	var b strings.Builder
	files := map[string]bool{}
	for f := range got {
		files[f] = true
	}
	for f := range want {
		files[f] = true
	}
	for _, f := range slices.Sorted(func(yield func(string) bool) {
		for f := range files {
			if !yield(f) {
				return
			}
		}
	}) {
		g, w := slices.Sorted(slices.Values(got[f])), slices.Sorted(slices.Values(want[f]))
		if !slices.Equal(g, w) {
			fmt.Fprintf(&b, "%s:\n  editor:\n    %s\n  lint:\n    %s\n", f, strings.Join(g, "\n    "), strings.Join(w, "\n    "))
		}
	}
	return b.String()
}
