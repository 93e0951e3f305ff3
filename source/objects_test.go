package source

import (
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// TestTreeCache: the cache keeps at least the maxTrees trees used last,
// and at most twice that.
func TestTreeCache(t *testing.T) {
	o := &objects{}
	hash := func(i int) plumbing.Hash { return plumbing.Hash{byte(i), byte(i >> 8), 1} }
	kids := []*node{{name: "a"}}
	for i := range 3 * maxTrees {
		o.cacheTree(hash(i), kids)
		// Tree 0 is used all along: it is never dropped.
		if _, ok := o.cachedTree(hash(0)); !ok {
			t.Fatalf("after %d trees, tree 0 was dropped", i+1)
		}
	}
	for i := 2 * maxTrees; i < 3*maxTrees; i++ {
		if _, ok := o.cachedTree(hash(i)); !ok {
			t.Errorf("tree %d, one of the last %d, was dropped", i, maxTrees)
		}
	}
	if _, ok := o.cachedTree(hash(1)); ok {
		t.Errorf("tree 1, used once long ago, is still cached")
	}
	if n := len(o.trees) + len(o.oldTrees); n > 2*maxTrees {
		t.Errorf("the cache holds %d trees, more than %d", n, 2*maxTrees)
	}
}
