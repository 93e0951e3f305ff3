package history

import (
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/charter-dev/charter/internal/repo/source"
)

// Commit is one commit of a range, whatever it changed.
type Commit struct {
	Hash    plumbing.Hash
	Parents []plumbing.Hash
	Author  source.Person
	Subject string
	// ApprovedBy and ReviewedBy hold the values of the Approved-by: and
	// Reviewed-by: trailers, in order.
	ApprovedBy []string
	ReviewedBy []string
}

// maxRange bounds the commits Between reads: a review of more is a
// mistake in the range (main..feature written backwards, say).
const maxRange = 100_000

// Between returns the commits reachable from to and not from from, as
// git rev-list from..to lists them (newest first by committer time, merge
// commits included): the commits a pull request from from to to brings.
func Between(repo *source.Repo, from, to string) ([]Commit, error) {
	a, err := repo.Resolve(from)
	if err != nil {
		return nil, err
	}
	b, err := repo.Resolve(to)
	if err != nil {
		return nil, err
	}
	excluded := map[plumbing.Hash]bool{}
	if err := reach(repo, a, excluded, nil); err != nil {
		return nil, err
	}
	var hashes []plumbing.Hash
	if err := reach(repo, b, map[plumbing.Hash]bool{}, func(h plumbing.Hash) bool {
		if excluded[h] {
			return false
		}
		hashes = append(hashes, h)
		return true
	}); err != nil {
		return nil, err
	}
	out := make([]Commit, 0, len(hashes))
	for _, h := range hashes {
		c, err := repo.CommitObject(h)
		if err != nil {
			return nil, err
		}
		ts := ParseTrailers(c.Message)
		out = append(out, Commit{
			Hash: h, Parents: c.ParentHashes,
			Author:     source.Person{Name: c.Author.Name, Email: c.Author.Email, When: c.Author.When},
			Subject:    subjectOf(c.Message),
			ApprovedBy: values(ts, "Approved-by"), ReviewedBy: values(ts, "Reviewed-by"),
		})
	}
	return out, nil
}

// reach visits every commit reachable from start once; visit, when set,
// says whether to go on to the commit's parents.
func reach(repo *source.Repo, start plumbing.Hash, seen map[plumbing.Hash]bool, visit func(plumbing.Hash) bool) error {
	stack := []plumbing.Hash{start}
	for len(stack) > 0 {
		h := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[h] {
			continue
		}
		seen[h] = true
		if len(seen) > maxRange*4 {
			return fmt.Errorf("more than %d commits to walk: check the range", maxRange*4)
		}
		if visit != nil && !visit(h) {
			continue
		}
		if repo.IsShallowBoundary(h) {
			return &source.ShallowError{Commit: h, Op: "list the commits of a range"}
		}
		n, err := repo.Node(h)
		if err != nil {
			return err
		}
		stack = append(stack, n.Parents...)
	}
	return nil
}

func subjectOf(msg string) string {
	s, _, _ := strings.Cut(msg, "\n")
	return strings.TrimRight(s, " \t\r")
}
