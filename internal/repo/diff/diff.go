// Package diff compares two versions of a repository's declarations field by
// field (docs/design.md §9): a list of changes {path, change, old, new},
// paths in dot notation, list items keyed by their id (or name, or type, or
// their own value for lists of unique scalars), and every change to what an
// agent may do classed widened, narrowed or neutral.
package diff

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/charter-dev/charter/internal/config/fieldpath"
	"github.com/charter-dev/charter/internal/config/model"
)

// Kinds of change.
const (
	Added    = "added"
	Removed  = "removed"
	Modified = "modified"
)

// Effects of a change on an agent's permissions.
const (
	Widened  = "widened"
	Narrowed = "narrowed"
	Neutral  = "neutral"
)

// Change is one difference.
type Change struct {
	Path   string          `json:"path"`
	Change string          `json:"change"`
	Old    json.RawMessage `json:"old,omitempty"`
	New    json.RawMessage `json:"new,omitempty"`
	Effect string          `json:"effect"`
	// Agent is the agent the change belongs to, "" for other declarations.
	Agent string `json:"agent,omitempty"`
	// Reason says why a change widens or narrows, in words.
	Reason string `json:"reason,omitempty"`
	// segs is Path split into labels, for classification.
	segs []string
}

// Values diffs two JSON-like values (as encoding/json decodes them) under
// the path prefix. Either may be nil (absent).
func Values(prefix []string, old, new any) []Change {
	var out []Change
	walk(prefix, old, new, &out)
	return out
}

func walk(path []string, old, new any, out *[]Change) {
	switch {
	case old == nil && new == nil:
		return
	case old == nil:
		*out = append(*out, change(path, Added, nil, new))
		return
	case new == nil:
		*out = append(*out, change(path, Removed, old, nil))
		return
	}
	om, ok1 := old.(map[string]any)
	nm, ok2 := new.(map[string]any)
	if ok1 && ok2 {
		for _, k := range unionKeys(om, nm) {
			walk(append(slices.Clone(path), k), om[k], nm[k], out)
		}
		return
	}
	ol, ok1 := old.([]any)
	nl, ok2 := new.([]any)
	if ok1 && ok2 {
		if key := listKey(ol, nl); key != "" {
			ok, nk := keyed(ol, key), keyed(nl, key)
			for _, k := range unionKeys(ok, nk) {
				walk(append(slices.Clone(path), fieldpath.Key(k)), ok[k], nk[k], out)
			}
			return
		}
		for i := range max(len(ol), len(nl)) {
			var o, n any
			if i < len(ol) {
				o = ol[i]
			}
			if i < len(nl) {
				n = nl[i]
			}
			walk(append(slices.Clone(path), fieldpath.Index(i)), o, n, out)
		}
		return
	}
	if !reflect.DeepEqual(old, new) {
		*out = append(*out, change(path, Modified, old, new))
	}
}

// listKey picks how list items are matched: "id", "name" or "type" when
// every item of both lists is an object with a unique string under it;
// "=" for lists of unique scalars; "" for matching by index.
func listKey(lists ...[]any) string {
	for _, k := range []string{"id", "name", "type"} {
		if uniqueBy(k, lists...) {
			return k
		}
	}
	for _, l := range lists {
		seen := map[string]bool{}
		for _, x := range l {
			s, ok := scalarKey(x)
			if !ok || seen[s] {
				return ""
			}
			seen[s] = true
		}
	}
	return "="
}

func uniqueBy(k string, lists ...[]any) bool {
	n := 0
	for _, l := range lists {
		seen := map[string]bool{}
		for _, x := range l {
			m, ok := x.(map[string]any)
			if !ok {
				return false
			}
			s, ok := m[k].(string)
			if !ok || seen[s] {
				return false
			}
			seen[s] = true
			n++
		}
	}
	return n > 0
}

func keyed(l []any, key string) map[string]any {
	out := map[string]any{}
	for _, x := range l {
		if key == "=" {
			s, _ := scalarKey(x)
			out[s] = x
		} else {
			out[x.(map[string]any)[key].(string)] = x
		}
	}
	return out
}

func scalarKey(x any) (string, bool) {
	switch v := x.(type) {
	case string:
		return v, true
	case bool, float64, json.Number:
		return fmt.Sprint(v), true
	}
	return "", false
}

func change(path []string, kind string, old, new any) Change {
	if len(path) > 0 {
		old, new = redactNamed(path[len(path)-1], old), redactNamed(path[len(path)-1], new)
	}
	c := Change{Path: joinPath(path), Change: kind, Effect: Neutral, segs: path}
	if old != nil {
		c.Old, _ = json.Marshal(old)
	}
	if new != nil {
		c.New, _ = json.Marshal(new)
	}
	return c
}

func joinPath(path []string) string { return fieldpath.Path(path).String() }

// Sort orders changes: by agent, widened first, then narrowed, then
// neutral, then by path.
func Sort(cs []Change) {
	rank := map[string]int{Widened: 0, Narrowed: 1, Neutral: 2}
	slices.SortStableFunc(cs, func(a, b Change) int {
		return cmp.Or(cmp.Compare(a.Agent, b.Agent), cmp.Compare(rank[a.Effect], rank[b.Effect]), cmp.Compare(a.Path, b.Path))
	})
}

// unionKeys returns the keys of a and b, each once, sorted.
func unionKeys[V any](a, b map[string]V) []string {
	keys := slices.AppendSeq(model.Sorted(a), maps.Keys(b))
	slices.Sort(keys)
	return slices.Compact(keys)
}
