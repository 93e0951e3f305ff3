package history_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/repo/history"
	"github.com/charter-dev/charter/internal/repo/source/sourcetest"
)

// TestBetween compares the commits of a range, merges and their trailers
// included, with git rev-list A..B.
func TestBetween(t *testing.T) {
	t.Parallel()
	r := sourcetest.New(t)
	r.Write("config/a.cue", "a: 1\n")
	r.Commit("base")
	r.Git("tag", "base")
	r.Git("checkout", "-q", "-b", "feat")
	r.Write("config/b.cue", "b: 1\n")
	r.Commit("feat: b\n\nApproved-by: Lee <lee@example.com>\nReviewed-by: Sam <sam@example.com>")
	r.Git("checkout", "-q", "main")
	r.Write("other.txt", "x\n")
	r.Commit("main: outside the root")
	r.Git("merge", "-q", "--no-ff", "-m", "merge feat\n\nApproved-by: Kim <kim@example.com>", "feat")
	r.Write("config/a.cue", "a: 2\n")
	r.Commit("after the merge")

	repo := open(t, r.Dir)
	for _, rng := range [][2]string{{"base", "main"}, {"feat", "main"}, {"main", "base"}, {"main~1", "main"}, {"main", "main"}} {
		got, err := history.Between(repo, rng[0], rng[1])
		if err != nil {
			t.Fatal(err)
		}
		var hashes []string
		for _, c := range got {
			hashes = append(hashes, c.Hash.String())
		}
		var want []string
		if out := r.Git("rev-list", rng[0]+".."+rng[1]); out != "" {
			want = strings.Split(out, "\n")
		}
		slices.Sort(hashes)
		slices.Sort(want)
		if d := cmp.Diff(want, hashes); d != "" {
			t.Errorf("Between(%s, %s) (-git rev-list +Between):\n%s", rng[0], rng[1], d)
		}
	}
	got, err := history.Between(repo, "base", "main")
	if err != nil {
		t.Fatal(err)
	}
	var approved []string
	for _, c := range got {
		approved = append(approved, c.ApprovedBy...)
	}
	slices.Sort(approved)
	if d := cmp.Diff([]string{"Kim <kim@example.com>", "Lee <lee@example.com>"}, approved); d != "" {
		t.Errorf("approvals in base..main (-want +got):\n%s", d)
	}
	if _, err := history.Between(repo, "nope", "main"); err == nil {
		t.Error("Between(nope, main) succeeded")
	}
}
