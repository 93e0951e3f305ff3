package validate

import (
	"fmt"
	"slices"
	"strings"
)

// closest returns the candidate nearest to name by edit distance, if it is
// near enough to be a likely typo.
func closest(name string, candidates []string) (string, bool) {
	// A name that is the start of exactly one candidate means that one.
	var prefixed []string
	for _, c := range candidates {
		if len(name) >= 3 && strings.HasPrefix(strings.ToLower(c), strings.ToLower(name)) {
			prefixed = append(prefixed, c)
		}
	}
	if len(prefixed) == 1 {
		return prefixed[0], true
	}
	// So does one candidate that shares a long stem with it ("verbose",
	// "verbosity").
	stem, stemN, ties := "", 0, 0
	for _, c := range candidates {
		n := commonPrefix(strings.ToLower(name), strings.ToLower(c))
		switch {
		case n > stemN:
			stem, stemN, ties = c, n, 1
		case n == stemN:
			ties++
		}
	}
	if stemN >= 5 && ties == 1 {
		return stem, true
	}
	best, bestD := "", -1
	for _, c := range candidates {
		d := distance(strings.ToLower(name), strings.ToLower(c))
		if bestD < 0 || d < bestD || d == bestD && c < best {
			best, bestD = c, d
		}
	}
	limit := max(2, len(name)/3)
	// A suggestion must keep something of the name: "zz" is two edits
	// from "a", and from every other two-letter name.
	if bestD < 0 || bestD > limit || bestD >= len([]rune(name)) || bestD >= len([]rune(best)) {
		return "", false
	}
	return best, true
}

// Closest is closest for other packages (rule ids, agent ids).
func Closest(name string, candidates []string) (string, bool) { return closest(name, candidates) }

// didYouMean returns `; did you mean "x"?` or, when nothing is close, the
// list of valid names (at most a dozen).
func didYouMean(name string, candidates []string, noun string) string {
	if c, ok := closest(name, candidates); ok {
		return fmt.Sprintf("; did you mean %q?", c)
	}
	if len(candidates) == 0 {
		return ""
	}
	s := slices.Clone(candidates)
	slices.Sort(s)
	if len(s) > 12 {
		return fmt.Sprintf("; valid %s include: %s, ...", noun, strings.Join(s[:12], ", "))
	}
	return fmt.Sprintf("; valid %s: %s", noun, strings.Join(s, ", "))
}

// distance is the Damerau-Levenshtein (optimal string alignment) distance.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}
