package team

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTaskCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		task Task
		want error
	}{
		{"known", Task{Skills: []string{"python", "sql"}, Tags: []string{"api"}}, nil},
		{"unknown skill", Task{Skills: []string{"pyhton"}, Tags: []string{"nope"}}, &UnknownError{Kind: "skill", Name: "pyhton", Known: []string{"go", "python", "sql"}}},
		{"unknown tag", Task{Skills: []string{"python"}, Tags: []string{"nope"}}, &UnknownError{Kind: "tag", Name: "nope", Known: []string{"api", "backend"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.task.Check(routed)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
