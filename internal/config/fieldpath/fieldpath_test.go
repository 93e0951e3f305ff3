package fieldpath_test

import (
	"testing"

	"cuelang.org/go/cue"
	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/config/fieldpath"
)

func TestString(t *testing.T) {
	tests := []struct {
		path fieldpath.Path
		want string
	}{
		{fieldpath.Path{"agents", "ann", "tools", "denied", fieldpath.Index(1)}, "agents.ann.tools.denied[1]"},
		{fieldpath.Path{"profiles", "my-prof", "rules", "no-rm"}, `profiles."my-prof".rules."no-rm"`},
		{fieldpath.Path{"agents", "my agent", "name"}, `agents."my agent".name`},
		{fieldpath.Path{"tools", "allowed", fieldpath.Key("Read")}, "tools.allowed[Read]"},
		{fieldpath.Path{"#Agent", "model"}, "#Agent.model"},
		{fieldpath.Path{"a", "3", "b"}, `a."3".b`},
		{fieldpath.Path{fieldpath.Index(0)}, "[0]"},
		{nil, ""},
	}
	for _, tt := range tests {
		if got := tt.path.String(); got != tt.want {
			t.Errorf("%q.String() = %s, want %s", []string(tt.path), got, tt.want)
		}
	}
}

func TestSelectors(t *testing.T) {
	p := fieldpath.Path{"agents", "my-agent", "tools", fieldpath.Index(2), fieldpath.Key("x")}
	var got []string
	for _, s := range p.Selectors() {
		got = append(got, s.String())
	}
	want := []string{"agents", `"my-agent"`, "tools", "2", `"[x]"`}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("selectors (-want +got):\n%s", d)
	}
	if !p.HasIndex() || (fieldpath.Path{"a", fieldpath.Key("x")}).HasIndex() {
		t.Error("HasIndex: want true for an index, false for a key")
	}
	_ = cue.MakePath(p.Selectors()...)
}

func TestChildDoesNotAlias(t *testing.T) {
	p := make(fieldpath.Path, 1, 4)
	p[0] = "a"
	b, c := p.Child("b"), p.Child("c")
	if b.String() != "a.b" || c.String() != "a.c" {
		t.Errorf("Child aliases its parent: %s, %s", b, c)
	}
}

func TestFromCUE(t *testing.T) {
	got := fieldpath.FromCUE([]string{"agents", `"my-agent"`, "tools", "2", `"3"`})
	want := fieldpath.Path{"agents", "my-agent", "tools", fieldpath.Index(2), "3"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("FromCUE (-want +got):\n%s", d)
	}
}
