package model

import (
	"cmp"
	"maps"
	"slices"
)

// Sorted returns the keys of m in ascending order.
func Sorted[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

func sortedBy[V any](m map[string]V, key func(V) int) []string {
	names := Sorted(m)
	slices.SortStableFunc(names, func(a, b string) int { return cmp.Compare(key(m[a]), key(m[b])) })
	return names
}
