package load

import (
	"testing"

	"cuelang.org/go/cue/parser"
	"github.com/google/go-cmp/cmp"
)

func TestAgentsOnly(t *testing.T) {
	for _, tc := range []struct {
		src  string
		ids  []string
		only bool
	}{
		{"package charter\nagents: a: {name: \"A\"}\n", []string{"a"}, true},
		{"package charter\nimport \"strings\"\n// c\nagents: {a: {name: strings.ToUpper(\"a\")}, \"b-c\": {}}\n", []string{"a", "b-c"}, true},
		{"package charter\nagents: a: {}\nagents: b: {}\n", []string{"a", "b"}, true},
		{"package charter\nagents: a: _base\n_base: {name: \"x\"}\n", nil, false},
		{"package charter\nagentTypes: t: {}\n", nil, false},
		{"package charter\nagents: [string]: {status: \"active\"}\n", nil, false},
		{"package charter\nagents: {for k, v in x {(k): v}}\n", nil, false},
		{"package charter\nagents: _x\n", nil, false},
		{"package charter\n", nil, false},
	} {
		f, err := parser.ParseFile("a.cue", tc.src)
		if err != nil {
			t.Fatal(err)
		}
		ids, ok := AgentsOnly(f)
		if ok != tc.only || !cmp.Equal(ids, tc.ids) {
			t.Errorf("AgentsOnly(%q) = %v, %v; want %v, %v", tc.src, ids, ok, tc.ids, tc.only)
		}
	}
}
