package team

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/config/model"
)

// crowd is n agents a0000... whose openness rises with the index, so that
// the most similar pairs are neighbours and the least similar the ends.
func crowd(n int) map[string]*model.Agent {
	out := map[string]*model.Agent{}
	for i := range n {
		o := float64(i) / float64(max(1, n-1))
		out[fmt.Sprintf("a%04d", i)] = &model.Agent{Department: []string{"eng", "ops"}[i%2], Personality: &model.Personality{Openness: &o}}
	}
	return out
}

// TestMatrixThreshold: up to FullMatrixMax agents team.json holds every
// pair; above it the extremes and the count instead, with the same
// averages.
func TestMatrixThreshold(t *testing.T) {
	for _, tc := range []struct {
		n, max     int
		wantMatrix bool
	}{
		{0, 2, true},
		{1, 2, true},
		{2, 2, true},
		{3, 2, false},
		{30, 29, false},
		{FullMatrixMax, FullMatrixMax, true},
		{FullMatrixMax + 1, FullMatrixMax, false},
	} {
		t.Run(fmt.Sprintf("%d agents, max %d", tc.n, tc.max), func(t *testing.T) {
			agents := crowd(tc.n)
			got, _ := build(Members(agents), tc.max)
			if (got.Compatibility != nil) != tc.wantMatrix {
				t.Fatalf("matrix written = %v, want %v", got.Compatibility != nil, tc.wantMatrix)
			}
			full, _ := build(Members(agents), tc.n)
			if !cmp.Equal(got.Average, full.Average) || !cmp.Equal(got.Departments, full.Departments) || !cmp.Equal(got.Skills, full.Skills) {
				t.Errorf("averages differ from the full matrix's: %v %v vs %v %v", got.Average, got.Departments, full.Average, full.Departments)
			}
			if tc.wantMatrix {
				if got.Top != nil || got.Lowest != nil || got.Pairs != 0 {
					t.Errorf("a full team has no extremes: top %v lowest %v pairs %d", got.Top, got.Lowest, got.Pairs)
				}
				return
			}
			// The extremes are the first and last pairs of every pair sorted.
			var all []Pair
			for i, row := range full.Compatibility {
				for j, sc := range row {
					all = append(all, Pair{A: full.Agents[i], B: full.Agents[i+1+j], Score: sc})
				}
			}
			byScore := func(desc bool) []Pair {
				s := slices.Clone(all)
				slices.SortStableFunc(s, func(x, y Pair) int {
					if x.Score != y.Score {
						if (x.Score > y.Score) == desc {
							return -1
						}
						return 1
					}
					return 0
				})
				return s[:min(len(s), Extremes)]
			}
			if diff := cmp.Diff(byScore(true), got.Top); diff != "" {
				t.Errorf("top (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(byScore(false), got.Lowest); diff != "" {
				t.Errorf("lowest (-want +got):\n%s", diff)
			}
			if got.Pairs != len(all) {
				t.Errorf("pairs = %d, want %d", got.Pairs, len(all))
			}
		})
	}
}

// TestTraitsMatchCompatibility: the all-pairs scorer gives
// Compatibility's score for every collaboration and conflict value.
func TestTraitsMatchCompatibility(t *testing.T) {
	collabs := []string{"", "independent", "pair", "team", "other"}
	conflicts := []string{"", "collaborate", "compromise", "accommodate", "compete", "avoid", "other"}
	for _, ca := range collabs {
		for _, cb := range collabs {
			for _, fa := range conflicts {
				for _, fb := range conflicts {
					a := &model.Personality{Extraversion: f(0.1), Collaboration: ca, ConflictApproach: fa}
					b := &model.Personality{Extraversion: f(0.9), Openness: f(0.2), Collaboration: cb, ConflictApproach: fb}
					if got, want := TraitsOf(a).score(TraitsOf(b)), Compatibility(a, b).Score; got != want {
						t.Errorf("%s/%s %s/%s: %v, want %v", ca, cb, fa, fb, got, want)
					}
				}
			}
		}
	}
}
