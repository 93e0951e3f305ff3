package load

import (
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// TestLoader loads repositories one after another with one Loader and
// wants what Load gives each: the same files, diagnostics and value. The
// loader shares its context and schema (with the values derived from it)
// until maxLoaderFiles files were loaded into it.
func TestLoader(t *testing.T) {
	big := fstest.MapFS{}
	for i := range maxLoaderFiles - 1 {
		big[fmt.Sprintf("agents/a%d.cue", i)] = &fstest.MapFile{Data: fmt.Appendf(nil, "agents: a%d: name: \"A\"\n", i)}
	}
	repos := []fstest.MapFS{
		{"a.cue": {Data: []byte("package charter\nagents: a: name: \"A\"\n")}},
		{"a.cue": {Data: []byte("agents: a: name: \"A\"\nagents: a: name: \"B\"\n")}}, // a conflict
		{"a.cue": {Data: []byte("agents: a: {\n")}},                                   // a syntax error
		big,
		{"b.cue": {Data: []byte("agents: b: name: \"B\"\n")}},
		big,
	}
	var ld Loader
	var last *Repo
	for i, fsys := range repos {
		want, wantDiags, err := Load(fsys, "repo")
		if err != nil {
			t.Fatal(err)
		}
		got, gotDiags, err := ld.Load(fsys, "repo")
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(wantDiags, gotDiags); d != "" {
			t.Errorf("repository %d: diagnostics (-Load +Loader):\n%s", i, d)
		}
		if d := cmp.Diff(want.Skipped, got.Skipped); d != "" {
			t.Errorf("repository %d: skipped (-Load +Loader):\n%s", i, d)
		}
		if w, g := fmt.Sprint(want.Value), fmt.Sprint(got.Value); w != g {
			t.Errorf("repository %d: value\n%s\nwant\n%s", i, g, w)
		}
		if w, g := fmt.Sprint(want.Schema.Defs), fmt.Sprint(got.Schema.Defs); w != g {
			t.Errorf("repository %d: schema differs", i)
		}
		// The big ones do not fit in the context the one before used.
		if shared := last != nil && last.Context() == got.Context(); i > 0 && shared != (i != 3 && i != 5) {
			t.Errorf("repository %d: shares the context of the one before: %v", i, shared)
		}
		if last != nil && (last.Context() == got.Context()) != (last.Schema == got.Schema) {
			t.Errorf("repository %d: shares the context but not the schema of the one before, or the other way round", i)
		}
		last = got
	}
}
