package history

// recent is a cache that keeps the entries used last: at least n of them
// and at most 2n, in two generations. When the current generation holds
// n entries it becomes the old one and the older is dropped; an entry
// found in the old generation moves back. A walk through history meets
// the same contents again mostly near where it met them before, and
// keeping every one it met made memory grow with the number of commits.
type recent[K comparable, V any] struct {
	n        int
	cur, old map[K]V
}

func newRecent[K comparable, V any](n int) *recent[K, V] {
	return &recent[K, V]{n: n, cur: map[K]V{}}
}

// get returns the entry for k.
func (r *recent[K, V]) get(k K) (V, bool) {
	if v, ok := r.cur[k]; ok {
		return v, true
	}
	v, ok := r.old[k]
	if ok {
		delete(r.old, k)
		r.put(k, v)
	}
	return v, ok
}

// put sets the entry for k.
func (r *recent[K, V]) put(k K, v V) {
	if _, ok := r.cur[k]; !ok && len(r.cur) >= r.n {
		r.old, r.cur = r.cur, make(map[K]V, r.n)
	}
	r.cur[k] = v
}

// atLeast makes the cache keep at least n entries from now on: a scope
// looks up a class for every file of its tree, and a cache smaller than
// the tree would read and parse them all again each time.
func (r *recent[K, V]) atLeast(n int) {
	if n > r.n {
		r.n = n
	}
}

// len returns the number of entries held.
func (r *recent[K, V]) len() int { return len(r.cur) + len(r.old) }
