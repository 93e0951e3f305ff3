package incremental_test

import (
	"maps"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/config/incremental"
	"github.com/charter-dev/charter/internal/config/revision"
)

var repo = map[string]string{
	"types.cue":  "package charter\n\nagentTypes: helper: {name: \"Helper\", description: \"Helps.\", system_prompt: \"You are {agent.name}.\"}\n",
	"ann.cue":    "package charter\n\nagents: ann: {name: \"Ann\", type: \"helper\", authority: reports_to: \"bob\"}\n",
	"bob.cue":    "package charter\n\nagents: bob: {name: \"Bob\", type: \"helper\"}\n",
	"carl.cue":   "package charter\n\nagents: carl: {name: \"Carl\", type: \"helper\"}\n",
	"dora.cue":   "package charter\n\nagents: dora: {name: \"Dora\", type: \"helper\", authority: can_delegate_to: [\"carl\"]}\n",
	"ernst.cue":  "package charter\n\nagents: ernst: {name: \"Ernst\", type: \"helper\"}\n",
	"frieda.cue": "package charter\n\nagents: frieda: {name: \"Frieda\", type: \"helper\"}\n",
}

func graph(t *testing.T) *incremental.Graph {
	t.Helper()
	fsys := fstest.MapFS{}
	for p, s := range repo {
		fsys[p] = &fstest.MapFile{Data: []byte(s)}
	}
	rev, err := new(revision.Evaluator).EvaluateFS(fsys, "test")
	if err != nil || !rev.OK() {
		t.Fatalf("%v %v", err, rev.Diagnostics)
	}
	return incremental.NewGraph(rev.Validation.Repo().Files, rev.Program)
}

// TestPlan: what an edit makes evaluate again, and what it leaves to
// the base.
func TestPlan(t *testing.T) {
	g := graph(t)
	edit := func(src string) *incremental.Edit { return &incremental.Edit{Src: []byte(src)} }
	type want struct {
		ok               bool
		redo, scope, out []string
	}
	for _, tc := range []struct {
		name    string
		changed map[string]*incremental.Edit
		added   bool
		want    want
	}{
		{"a manager's file: who names it is redone", map[string]*incremental.Edit{"bob.cue": edit(repo["bob.cue"] + "// x\n")}, false,
			want{true, []string{"ann.cue", "bob.cue", "types.cue"}, []string{"ann.cue", "bob.cue", "types.cue"}, []string{"carl", "dora", "ernst", "frieda"}}},
		{"a new delegate: its file is read, not redone", map[string]*incremental.Edit{"ernst.cue": edit("package charter\n\nagents: ernst: {name: \"Ernst\", type: \"helper\", authority: can_delegate_to: [\"frieda\"]}\n")}, false,
			want{true, []string{"ernst.cue", "types.cue"}, []string{"ernst.cue", "frieda.cue", "types.cue"}, []string{"ann", "bob", "carl", "dora"}}},
		{"a file that declares more than agents", map[string]*incremental.Edit{"types.cue": edit(repo["types.cue"] + "// x\n")}, false, want{}},
		{"an edit that adds a type", map[string]*incremental.Edit{"bob.cue": edit(repo["bob.cue"] + "presets: p: behavior: {}\n")}, false, want{}},
		{"a removed file, not allowed", map[string]*incremental.Edit{"carl.cue": {}}, false, want{}},
		{"a removed file: its agent is elsewhere no more", map[string]*incremental.Edit{"carl.cue": {}}, true,
			want{true, []string{"carl.cue", "dora.cue", "types.cue"}, []string{"dora.cue", "types.cue"}, []string{"ann", "bob", "ernst", "frieda"}}},
		{"a new file, not allowed", map[string]*incremental.Edit{"gus.cue": edit("package charter\n\nagents: gus: {name: \"Gus\", type: \"helper\"}\n")}, false, want{}},
		{"a new file", map[string]*incremental.Edit{"gus.cue": edit("package charter\n\nagents: gus: {name: \"Gus\", type: \"helper\", authority: reports_to: \"bob\"}\n")}, true,
			want{true, []string{"gus.cue", "types.cue"}, []string{"bob.cue", "gus.cue", "types.cue"}, []string{"ann", "carl", "dora", "ernst", "frieda"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, ok := g.Plan(tc.changed, nil, tc.added)
			got := want{ok: ok}
			if ok {
				got = want{true, slices.Sorted(maps.Keys(p.Redo)), slices.Sorted(maps.Keys(p.Scope)), slices.Sorted(maps.Keys(p.Elsewhere))}
			}
			if d := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); d != "" {
				t.Errorf("Plan (-want +got):\n%s", d)
			}
		})
	}
}
