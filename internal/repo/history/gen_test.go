package history_test

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/charter-dev/charter/internal/repo/source/sourcetest"
)

// genCommit is one commit of a generated history.
type genCommit struct {
	branch  string
	parents []int
	files   map[string]string
	time    int64
	msg     string
}

// genHistory makes a random history of n commits with branches, merges of
// every kind (ours, theirs, combined, octopus), commits outside the config
// root, deletions and re-creations of the root, reverts to earlier trees,
// and committer times that tie and go backwards.
func genHistory(seed uint64, n int) []genCommit {
	rnd := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var commits []genCommit
	branches := map[string]int{}
	names := []string{"main"}
	base := sourcetest.Epoch.Unix()
	now := base

	files := func(i int) map[string]string {
		if i < 0 {
			return map[string]string{}
		}
		return maps.Clone(commits[i].files)
	}
	// rootOf returns the config/ part of a file set.
	rootOf := func(fs map[string]string) map[string]string {
		out := map[string]string{}
		for p, c := range fs {
			if strings.HasPrefix(p, "config/") {
				out[p] = c
			}
		}
		return out
	}
	setRoot := func(fs, root map[string]string) {
		for p := range fs {
			if strings.HasPrefix(p, "config/") {
				delete(fs, p)
			}
		}
		maps.Copy(fs, root)
	}
	mutate := func(fs map[string]string, i int) {
		for range 1 + rnd.IntN(3) {
			switch k := rnd.IntN(20); {
			case k < 9:
				fs[fmt.Sprintf("config/agents/a%02d.cue", rnd.IntN(12))] = fmt.Sprintf("agents: a: {v: %d}\n", i)
			case k < 10:
				fs[fmt.Sprintf("config/top%d.cue", rnd.IntN(2))] = fmt.Sprintf("x: %d\n", i)
			case k < 15:
				fs[fmt.Sprintf("other/f%d.txt", rnd.IntN(5))] = fmt.Sprintf("%d\n", i)
			case k < 17:
				keys := slices.Sorted(maps.Keys(rootOf(fs)))
				if len(keys) > 0 {
					delete(fs, keys[rnd.IntN(len(keys))])
				}
			case k < 18:
				setRoot(fs, nil) // delete the whole root
			default:
				if len(commits) > 0 { // back to an earlier root tree
					setRoot(fs, rootOf(commits[rnd.IntN(len(commits))].files))
				}
			}
		}
	}
	for i := range n {
		switch t := rnd.IntN(10); {
		case t < 7:
			now += 60
		case t < 9:
			// same second as the previous commit
		default:
			now -= int64(60 * rnd.IntN(5)) // clock skew
		}
		c := genCommit{time: now, msg: fmt.Sprintf("commit %d", i)}
		op := rnd.IntN(100)
		switch {
		case len(commits) == 0 || op < 55:
			c.branch = names[rnd.IntN(len(names))]
			p, ok := branches[c.branch]
			c.files = files(-1)
			if ok {
				c.parents = []int{p}
				c.files = files(p)
			}
			mutate(c.files, i)
		case op < 70:
			from := rnd.IntN(len(commits))
			c.branch = fmt.Sprintf("b%d", i)
			names = append(names, c.branch)
			c.parents = []int{from}
			c.files = files(from)
			mutate(c.files, i)
		default:
			c.branch = names[rnd.IntN(len(names))]
			ours, ok := branches[c.branch]
			if !ok {
				ours = rnd.IntN(len(commits))
			}
			c.parents = []int{ours}
			for range 1 + rnd.IntN(4)/3 { // sometimes an octopus
				theirs := rnd.IntN(len(commits))
				if !slices.Contains(c.parents, theirs) {
					c.parents = append(c.parents, theirs)
				}
			}
			c.files = files(ours)
			last := c.parents[len(c.parents)-1]
			switch rnd.IntN(4) {
			case 0: // -s ours: keep our tree
			case 1: // take theirs for the config root
				setRoot(c.files, rootOf(commits[last].files))
			case 2: // combine both sides
				maps.Copy(c.files, commits[last].files)
			default:
				maps.Copy(c.files, commits[last].files)
				mutate(c.files, i)
			}
		}
		branches[c.branch] = len(commits)
		commits = append(commits, c)
	}
	return commits
}

// fastImport writes hs as a git fast-import stream.
func fastImport(hs []genCommit) []byte {
	var b bytes.Buffer
	data := func(s string) { fmt.Fprintf(&b, "data %d\n%s\n", len(s), s) }
	for i, c := range hs {
		fmt.Fprintf(&b, "commit refs/heads/%s\nmark :%d\n", c.branch, i+1)
		fmt.Fprintf(&b, "author Ada Author <ada@example.com> %d +0000\n", c.time)
		fmt.Fprintf(&b, "committer Cy Committer <cy@example.com> %d +0000\n", c.time)
		data(c.msg)
		for j, p := range c.parents {
			if j == 0 {
				fmt.Fprintf(&b, "from :%d\n", p+1)
			} else {
				fmt.Fprintf(&b, "merge :%d\n", p+1)
			}
		}
		b.WriteString("deleteall\n")
		for _, p := range slices.Sorted(maps.Keys(c.files)) {
			fmt.Fprintf(&b, "M 100644 inline %s\n", p)
			data(c.files[p])
		}
	}
	return b.Bytes()
}

// importHistory makes a repository holding hs and returns it.
func importHistory(t testing.TB, hs []genCommit) *sourcetest.Repo {
	t.Helper()
	r := sourcetest.New(t)
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = r.Dir
	cmd.Env = sourcetest.Env(sourcetest.Epoch)
	cmd.Stdin = bytes.NewReader(fastImport(hs))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git fast-import: %v\n%s", err, out)
	}
	return r
}
