package history_test

import (
	"slices"
	"testing"

	"github.com/charter-dev/charter/internal/repo/history"
)

func TestNewest(t *testing.T) {
	vs := func(ns ...int) []history.Version {
		var out []history.Version
		for _, n := range ns {
			out = append(out, history.Version{Number: n})
		}
		return out
	}
	numbers := func(v []history.Version) []int {
		var out []int
		for _, x := range v {
			out = append(out, x.Number)
		}
		return out
	}
	for _, tc := range []struct {
		limit int
		want  []int
	}{{0, []int{4, 3, 2, 1}}, {2, []int{4, 3}}, {9, []int{4, 3, 2, 1}}} {
		if got := numbers(history.Newest(vs(1, 2, 3, 4), tc.limit)); !slices.Equal(got, tc.want) {
			t.Errorf("Newest(1..4, %d) = %v, want %v", tc.limit, got, tc.want)
		}
	}
	if history.Newest(nil, 3) != nil {
		t.Error("Newest(nil) is not nil")
	}
}
