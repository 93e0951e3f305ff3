package validate_test

import (
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/config/validate"
)

// TestLoaderRuns validates repositories loaded by one load.Loader, which
// share the schema and with it the decoded standard library, and wants
// what validating each one on its own gives.
func TestLoaderRuns(t *testing.T) {
	const ann = "agents: ann: {name: \"Ann\", type: \"personal_assistant\"%s}\n"
	repos := []map[string]string{
		{"a.cue": sprintf(ann, "")},
		{"a.cue": sprintf(ann, `, autonomy_level: "sometimes"`)},
		{"a.cue": sprintf(ann, `, colour: "red"`)},
		{"a.cue": sprintf(ann, ""), "p.cue": "presets: calm: behavior: communication: verbosity: \"concise\"\n"},
		{"a.cue": sprintf(ann, `, profile: "nope"`)},
		{"a.cue": sprintf(ann, "")},
	}
	// The first Run in a process decodes the standard library from CUE,
	// later ones from the JSON it cached (where an empty map with
	// omitempty comes back nil); compare later ones only.
	validate.Run(loadFS(t, nil, repos[0]))
	var ld load.Loader
	var first *validate.Result
	for i, files := range repos {
		want := validate.Run(loadFS(t, nil, files))
		got := validate.Run(loadFS(t, &ld, files))
		if d := cmp.Diff(want.Diagnostics, got.Diagnostics); d != "" {
			t.Errorf("repository %d: diagnostics (-alone +with a loader):\n%s", i, d)
		}
		if d := cmp.Diff(want.Config, got.Config); d != "" {
			t.Errorf("repository %d: config (-alone +with a loader):\n%s", i, d)
		}
		if d := cmp.Diff(want.Invalid, got.Invalid); d != "" {
			t.Errorf("repository %d: invalid (-alone +with a loader):\n%s", i, d)
		}
		if first == nil {
			first = got
		} else if first.Config.Profiles["dev"] != got.Config.Profiles["dev"] {
			t.Errorf("repository %d: the standard library's dev profile was decoded again", i)
		}
	}
}

// loadFS loads files with ld (nil: a Loader of its own).
func loadFS(t *testing.T, ld *load.Loader, files map[string]string) *load.Repo {
	t.Helper()
	fsys := fstest.MapFS{}
	for p, src := range files {
		fsys[p] = &fstest.MapFile{Data: []byte(src)}
	}
	repo, _, err := ld.Load(fsys, "repo")
	if err != nil {
		t.Fatal(err)
	}
	return repo
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
