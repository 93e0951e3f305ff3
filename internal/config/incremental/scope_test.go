package incremental_test

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

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

func graph(t *testing.T) *incremental.Graph { return graphWith(t, "", "") }

// graphWith is the graph of repo with file rel holding src besides ("" for
// none).
func graphWith(t *testing.T, rel, src string) *incremental.Graph {
	t.Helper()
	fsys := fstest.MapFS{}
	for p, s := range repo {
		fsys[p] = &fstest.MapFile{Data: []byte(s)}
	}
	if rel != "" {
		fsys[rel] = &fstest.MapFile{Data: []byte(src)}
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
		{"another package clause", map[string]*incremental.Edit{"bob.cue": edit(strings.Replace(repo["bob.cue"], "package charter", "package other", 1))}, false, want{}},
		{"a reference to another agent", map[string]*incremental.Edit{"bob.cue": edit(strings.Replace(repo["bob.cue"], `"Bob"`, "agents.carl.name", 1))}, false, want{}},
		// A name computed from parts is no string the index can find: the
		// agent it names would be out of scope.
		{"a delegate named by an interpolation", map[string]*incremental.Edit{"ernst.cue": edit("package charter\n\nagents: ernst: {name: \"Ernst\", type: \"helper\", _n: \"rieda\", authority: can_delegate_to: [\"f\\(_n)\"]}\n")}, false, want{}},
		{"a manager named by a concatenation", map[string]*incremental.Edit{"ernst.cue": edit("package charter\n\nagents: ernst: {name: \"Ernst\", type: \"helper\", authority: reports_to: \"fri\" + \"eda\"}\n")}, false, want{}},
		{"a manager named under a computed label", map[string]*incremental.Edit{"ernst.cue": edit("package charter\n\nagents: ernst: {name: \"Ernst\", type: \"helper\", authority: (\"reports_to\"): \"fri\" + \"eda\"}\n")}, false, want{}},
		{"a manager named by an embedded value", map[string]*incremental.Edit{"ernst.cue": edit("package charter\n\nagents: ernst: {name: \"Ernst\", type: \"helper\", authority: reports_to: {\"fri\" + \"eda\"}}\n")}, false, want{}},
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

// TestComputedNamesAreOpaque: a file that may compute an agent's name
// (an interpolation, a concatenation, a call) makes the base opaque:
// which agents it names is not in its strings, so no edit is answered
// incrementally. A flow step's agent named so is the case that reached
// users: the scope left the agent out, and validation found it unknown.
func TestComputedNamesAreOpaque(t *testing.T) {
	for name, src := range map[string]string{
		"interpolation": "package charter\n\n_who: \"bob\"\nflows: f: steps: [{name: \"s\", agent: \"\\(_who)\"}]\n",
		"concatenation": "package charter\n\nflows: f: steps: [{name: \"s\", agent: \"b\" + \"ob\"}]\n",
		"call":          "package charter\n\nimport \"strings\"\n\nflows: f: steps: [{name: \"s\", agent: strings.ToLower(\"BOB\")}]\n",
		"reference":     "package charter\n\n#Boss: \"b\" + \"ob\"\nroles: lead: members: [#Boss]\n",
		// Not a field named so, or not a value such a field's strings show.
		"embedded in a struct":      "package charter\n\nflows: f: steps: [{name: \"s\", agent: {\"b\" + \"ob\"}}]\n",
		"a dynamic label":           "package charter\n\nflows: f: steps: [{name: \"s\", (\"agent\"): \"b\" + \"ob\"}]\n",
		"an interpolated label":     "package charter\n\n_a: \"agent\"\nflows: f: steps: [{name: \"s\", \"\\(_a)\": \"b\" + \"ob\"}]\n",
		"an agent's dynamic label":  "package charter\n\nagents: gus: {name: \"Gus\", type: \"helper\", authority: (\"reports_to\"): \"b\" + \"ob\"}\n",
		"an agent's raw label":      "package charter\n\nagents: gus: {name: \"Gus\", type: \"helper\", authority: #\"reports_to\"#: \"b\" + \"ob\"}\n",
		"an agent's embedded value": "package charter\n\nagents: gus: {name: \"Gus\", type: \"helper\", authority: reports_to: {\"b\" + \"ob\"}}\n",
		"an agent's raw string":     "package charter\n\nagents: gus: {name: \"Gus\", type: \"helper\", authority: reports_to: #\"bob\"#}\n",
		"a multi-line string":       "package charter\n\nflows: f: steps: [{name: \"s\", agent: \"\"\"\n\tbob\n\t\"\"\"}]\n",
		"a raw label":               "package charter\n\nflows: f: steps: [{name: \"s\", #\"agent\"#: \"b\" + \"ob\"}]\n",
	} {
		t.Run(name, func(t *testing.T) {
			g := graphWith(t, "flows.cue", src)
			if _, ok := g.Plan(map[string]*incremental.Edit{"bob.cue": {Src: []byte(repo["bob.cue"] + "// x\n")}}, nil, false); ok {
				t.Error("planned an edit over a base whose names are computed")
			}
		})
	}
}

// TestComputedStringsElsewhere: a string computed where no agent is
// named (a test call's arguments) leaves the base as it is.
func TestComputedStringsElsewhere(t *testing.T) {
	g := graphWith(t, "tests.cue", "package charter\n\n_dir: \"src\"\n_note: \"\\(_dir)/f.py\" + \"!\"\n")
	if _, ok := g.Plan(map[string]*incremental.Edit{"bob.cue": {Src: []byte(repo["bob.cue"] + "// x\n")}}, nil, false); !ok {
		t.Error("an edit not planned over a base whose computed strings name no agent")
	}
}

// TestAdvance: a graph advanced over an edit knows the edit's agents,
// names and edges, and a later plan redoes a file on a cycle with the
// whole cycle, though no edit touches that cycle.
func TestAdvance(t *testing.T) {
	g := graph(t)
	now := maps.Clone(repo)
	now["ernst.cue"] = "package charter\n\nagents: ernst: {name: \"Ernst\", type: \"helper\", authority: can_delegate_to: [\"frieda\"]}\n"
	now["frieda.cue"] = "package charter\n\nagents: frieda: {name: \"Frieda\", type: \"helper\", authority: can_delegate_to: [\"ernst\"]}\n"
	delete(now, "carl.cue")
	now["dora.cue"] = "package charter\n\nagents: dora: {name: \"Dora\", type: \"helper\"}\n"
	now["gus.cue"] = "package charter\n\nagents: gus: {name: \"Gus\", type: \"helper\", authority: reports_to: \"dora\"}\n"
	changed := map[string]*incremental.Edit{"carl.cue": {}}
	for _, p := range []string{"ernst.cue", "frieda.cue", "dora.cue", "gus.cue"} {
		changed[p] = &incremental.Edit{Src: []byte(now[p])}
	}
	fsys := fstest.MapFS{}
	for p, s := range now {
		fsys[p] = &fstest.MapFile{Data: []byte(s)}
	}
	rev, err := new(revision.Evaluator).EvaluateFS(fsys, "test")
	if err != nil || !rev.OK() {
		t.Fatalf("%v %v", err, rev.Diagnostics)
	}
	adv := g.Advance(changed, rev.Validation.Repo().Files, rev.Program)
	fresh := incremental.NewGraph(rev.Validation.Repo().Files, rev.Program)
	norm := cmp.Transformer("sorted", func(in []string) []string {
		out := slices.Sorted(slices.Values(in))
		if len(out) == 0 {
			return nil
		}
		return out
	})
	if d := cmp.Diff(fresh, adv, norm, cmpopts.IgnoreUnexported(incremental.Graph{})); d != "" {
		t.Errorf("Advance differs from a fresh graph (-fresh +advanced):\n%s", d)
	}
	if d := cmp.Diff(g, graph(t), cmpopts.IgnoreUnexported(incremental.Graph{})); d != "" {
		t.Errorf("Advance changed the graph it advanced:\n%s", d)
	}
	for _, gr := range []*incremental.Graph{adv, fresh} {
		// bob's edit redoes ann's file; ann's file is dirty with ernst's
		// (an earlier edit's): ernst's cycle is redone whole.
		p, ok := gr.Plan(map[string]*incremental.Edit{"bob.cue": {Src: []byte(now["bob.cue"] + "// x\n")}}, []string{"ernst.cue"}, false)
		if !ok {
			t.Fatal("Plan refused an edit of agents")
		}
		if d := cmp.Diff([]string{"ann.cue", "bob.cue", "ernst.cue", "frieda.cue", "types.cue"}, slices.Sorted(maps.Keys(p.Redo))); d != "" {
			t.Errorf("Redo (-want +got):\n%s", d)
		}
		if d := cmp.Diff([]string{"dora", "gus"}, slices.Sorted(maps.Keys(p.Elsewhere))); d != "" {
			t.Errorf("Elsewhere (-want +got):\n%s", d)
		}
		// gus names dora: an edit of dora redoes gus's file.
		p, _ = gr.Plan(map[string]*incremental.Edit{"dora.cue": {Src: []byte(now["dora.cue"])}}, nil, false)
		if !p.Redo["gus.cue"] {
			t.Errorf("an edit of dora does not redo gus.cue: %v", slices.Sorted(maps.Keys(p.Redo)))
		}
	}
}

// After an editor advances its base, a file naming a role is still known
// to name it: an agent added later under the role's name redoes it (the
// advanced graph indexed the agents' names only, so a reports_to naming
// the role was forgotten and the new manager's checks left stale).
func TestAdvanceKeepsRoleNames(t *testing.T) {
	files := map[string]string{
		"types.cue": repo["types.cue"] + "\nroles: boss: members: [\"bob\"]\n",
		"ann.cue":   "package charter\n\nagents: ann: {name: \"Ann\", type: \"helper\", authority: reports_to: \"boss\"}\n",
		"bob.cue":   repo["bob.cue"],
	}
	eval := func() *revision.Revision {
		fsys := fstest.MapFS{}
		for p, s := range files {
			fsys[p] = &fstest.MapFile{Data: []byte(s)}
		}
		rev, err := new(revision.Evaluator).EvaluateFS(fsys, "test")
		if err != nil || !rev.OK() {
			t.Fatalf("%v %v", err, rev.Diagnostics)
		}
		return rev
	}
	rev := eval()
	g := incremental.NewGraph(rev.Validation.Repo().Files, rev.Program)
	files["ann.cue"] += "// edited\n"
	changed := map[string]*incremental.Edit{"ann.cue": {Src: []byte(files["ann.cue"])}}
	if _, ok := g.Plan(changed, nil, false); !ok {
		t.Fatal("the edit of ann.cue is not incremental")
	}
	rev = eval()
	g = g.Advance(changed, rev.Validation.Repo().Files, rev.Program)
	added := map[string]*incremental.Edit{"boss.cue": {Src: []byte("package charter\n\nagents: boss: {name: \"Boss\", type: \"helper\"}\n")}}
	p, ok := g.Plan(added, nil, true)
	if !ok {
		t.Fatal("adding boss.cue is not incremental")
	}
	if !p.Redo["ann.cue"] {
		t.Errorf("adding agent boss does not redo ann.cue, which reports to the role boss; redo: %v", slices.Sorted(maps.Keys(p.Redo)))
	}
}

// TestNamesOfAnotherFile: an agent's file that uses a declaration of a
// file that names agents (authority: #UnderBob, #UnderBob: reports_to:
// "bob") names them too, though its own strings do not: the base that
// holds one is opaque, and an edit that adds one is not planned.
func TestNamesOfAnotherFile(t *testing.T) {
	evaluate := func(t *testing.T, extra map[string]string) *incremental.Graph {
		t.Helper()
		fsys := fstest.MapFS{}
		for p, s := range repo {
			fsys[p] = &fstest.MapFile{Data: []byte(s)}
		}
		for p, s := range extra {
			fsys[p] = &fstest.MapFile{Data: []byte(s)}
		}
		rev, err := new(revision.Evaluator).EvaluateFS(fsys, "test")
		if err != nil || !rev.OK() {
			t.Fatalf("%v %v", err, rev.Diagnostics)
		}
		return incremental.NewGraph(rev.Validation.Repo().Files, rev.Program)
	}
	lead := "package charter\n\n#Lead: #UnderBob\n#UnderBob: reports_to: \"bob\"\n"
	uses := "package charter\n\nagents: gus: {name: \"Gus\", type: \"helper\", authority: #Lead}\n"
	if g := evaluate(t, map[string]string{"lead.cue": lead, "gus.cue": uses}); !g.Opaque {
		t.Error("a base whose agent names its manager through another file's declaration is not opaque")
	}
	g := evaluate(t, map[string]string{"lead.cue": lead})
	if g.Opaque {
		t.Fatal("opaque without a use")
	}
	if _, ok := g.Plan(map[string]*incremental.Edit{"gus.cue": {Src: []byte(uses)}}, nil, true); ok {
		t.Error("planned an edit that names a manager through another file's declaration")
	}
}
