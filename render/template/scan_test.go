package template

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestScan(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"Greet {user_name} at {agent.name}.", []string{"user_name", "agent.name"}},
		{"literal {{user_name}} and {x y} and }", nil},
		{"{a}{b} {unterminated", []string{"a", "b"}},
		{"{{{a}", []string{"a"}},
		{"", nil},
	} {
		if got := Scan(tc.text); !cmp.Equal(got, tc.want) {
			t.Errorf("Scan(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
