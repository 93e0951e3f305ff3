package importer

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/editor/cuefmt"
)

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Sarah Chen":               "sarah-chen",
		"personal_assistant":       "personal_assistant",
		"Senior Backend Developer": "senior-backend-developer",
		"Renée O'Brien":            "renee-o-brien",
		"--x--":                    "x",
		"":                         "imported",
		"日本":                       "imported",
		"_hidden":                  "hidden",
		"Behavior Bot v1.0":        "behavior-bot-v1-0",
	} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPositions: every value and key is where the source has it, in both
// parsers.
func TestPositions(t *testing.T) {
	type pos struct {
		Path string
		Pos  Pos
	}
	collect := func(n *Node) []pos {
		var out []pos
		var walk func(n *Node, p Path)
		walk = func(n *Node, p Path) {
			out = append(out, pos{p.String(), n.Pos})
			for _, f := range n.Fields {
				out = append(out, pos{p.key(f.Key).String() + " (key)", f.KeyPos})
				walk(f.Value, p.key(f.Key))
			}
			for i, it := range n.Items {
				walk(it, p.index(i))
			}
		}
		walk(n, nil)
		return out
	}
	for _, tc := range []struct {
		name, src string
		want      []pos
	}{
		{"x.json", "{\n  \"a\": [1, {\"é\": true}],\n  \"b\": null\n}", []pos{
			{"", Pos{1, 1}}, {"a (key)", Pos{2, 3}}, {"a", Pos{2, 8}}, {"a[0]", Pos{2, 9}}, {"a[1]", Pos{2, 12}},
			{"a[1].é (key)", Pos{2, 13}}, {"a[1].é", Pos{2, 18}}, {"b (key)", Pos{3, 3}}, {"b", Pos{3, 8}},
		}},
		{"x.yaml", "a:\n  - 1\n  - é: true\nb: ~\n", []pos{
			{"", Pos{1, 1}}, {"a (key)", Pos{1, 1}}, {"a", Pos{2, 3}}, {"a[0]", Pos{2, 5}}, {"a[1]", Pos{3, 5}},
			{"a[1].é (key)", Pos{3, 5}}, {"a[1].é", Pos{3, 8}}, {"b (key)", Pos{4, 1}}, {"b", Pos{4, 4}},
		}},
	} {
		n, _, err := Parse([]byte(tc.src), tc.name)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if diff := cmp.Diff(tc.want, collect(n)); diff != "" {
			t.Errorf("%s: positions (-want +got):\n%s", tc.name, diff)
		}
	}
}

// TestScalars: YAML's scalars become the values CUE reads the same way.
func TestScalars(t *testing.T) {
	n, _, err := Parse([]byte("a: 0x1F\nb: 5.00\nc: 1e3\nd: yes\ne: true\nf: \"3\"\ng: 2026-02-27\nh: .5\ni: null\n"), "x.yaml")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range n.Fields {
		got[f.Key] = f.Value.Kind.String() + " " + f.Value.Text
	}
	want := map[string]string{
		"a": "number 31", "b": "number 5.00", "c": "number 1e3", "d": "string yes", "e": "bool true",
		"f": "string 3", "g": "string 2026-02-27", "h": "number 0.5", "i": "null ",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("scalars (-want +got):\n%s", diff)
	}
}

func TestDetect(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`{"behavior_config": {}}`, "echoforge"},
		{`{"communication": {"verbosity": "concise"}}`, "echoforge"},
		{"behaviors:\n  - type: FileToolsBehavior\n", "jetbox"},
		{"security:\n  behavior:\n    profile: coding\n", "behavior-engine"},
		{"app: {app_id: x}\nagents: [{id: main}]\n", "behavior-engine"},
		{"agent:\n  name: A\n", "synthorg"},
		{`{"id": "a", "type": "t", "content_hash": "x", "behaviors": []}`, "charter"},
		{"hello: world\n", ""},
		{"[1, 2]", ""},
		{"agent: {name: A}\nbehaviors: []\n", ""}, // two formats: --from says which
	} {
		n, _, err := Parse([]byte(tc.src), "x")
		if err != nil {
			t.Fatalf("%q: %v", tc.src, err)
		}
		f, _ := Detect(n)
		got := ""
		if f != nil {
			got = f.Name
		}
		if got != tc.want {
			t.Errorf("Detect(%q) = %q, want %q", tc.src, got, tc.want)
		}
	}
}

// convert runs a format's conversion on src with an empty repository.
func convert(t testing.TB, f *Format, src []byte) *Result {
	res := &Result{Source: "x"}
	n, _, err := Parse(src, "x")
	if err != nil {
		t.Fatal(err)
	}
	c := &conv{res: res, stem: "x", name: "x", w: &walker{res: res}, existing: func(string, string) (bool, bool) { return false, false }}
	f.convert(c, n)
	return res
}

// TestSeedsCarried: of the seeds' examples, exactly the keys charter has
// no field for are not carried; everything else lands in a field.
func TestSeedsCarried(t *testing.T) {
	for file, want := range map[string][]string{
		"agent_type_personal_assistant.json": nil,
		"personal_assistant_defaults.json":   nil,
		"task_executor.yaml":                 nil,
		"sarah.yaml":                         nil,
		"behavior-bot.yaml": {"app.version", "runtime.mode", "runtime.workdir_mode", "agents[0].brain.backend", "agents[0].brain.credential",
			"agents[0].brain.config.api_key", "agents[0].brain.config.base_url", "tools.modules", "tools.capabilities"},
	} {
		src, err := os.ReadFile(filepath.Join("testdata", "seeds", file))
		if err != nil {
			t.Fatal(err)
		}
		n, _, err := Parse(src, file)
		if err != nil {
			t.Fatal(err)
		}
		f, _ := Detect(n)
		if f == nil {
			t.Fatalf("%s: no format", file)
		}
		res := convert(t, f, src)
		var got []string
		for _, e := range res.NotCarried {
			got = append(got, e.Path)
		}
		slices.Sort(want)
		slices.Sort(got)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: not carried (-want +got):\n%s", file, diff)
		}
		for _, d := range res.Decls {
			d.File = d.Kind + "/" + d.ID + ".cue"
			b, err := d.source("charter")
			if err != nil {
				t.Errorf("%s: %v", file, err)
				continue
			}
			checkWritten(t, d, b)
			if out, ds := cuefmt.Source(d.File, b); ds != nil || string(out) != string(b) {
				t.Errorf("%s: %s is not formatted as charter fmt formats it: %v", file, d.File, ds)
			}
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"x.yaml", "a: 1\n---\nb: 2\n", "3:1: a second YAML document (after ---): import one document at a time"},
		{"x.yaml", "a: !Ref x\n", "1:4: YAML tag !Ref: charter import reads plain YAML values (strings, numbers, booleans, null, maps and lists)"},
		{"x.yaml", "a: .inf\n", "1:4: .inf is not a number CUE can hold; write a finite number"},
		{"x.yaml", "", "1:1: the file holds no YAML document"},
		{"x.yaml", "? [a]\n: 2\n", "1:3: a key that is a map or a list: keys must be plain scalars"},
		{"x.yaml", "a: &x [*x]\n", "1:8: alias *x refers to the value that contains it"},
		{"x.json", `{"a": 1e999}`, "1:7: number 1e999 is out of range: write one between -1.8e308 and 1.8e308"},
		{"x.json", "{}\n{}", "2:1: more after the end of the JSON value: a file holds one value"},
		{"x.json", "", "1:1: unexpected end of JSON input"},
		{"x.json", strings.Repeat("[", 200), "1:102: nested deeper than 100 levels"},
	} {
		_, _, err := Parse([]byte(tc.src), tc.name)
		got := "<nil>"
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("Parse(%q):\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}

// TestClassifyTurns: the behavior engine's classify_turns is the profile's,
// whatever its value and whether the app declares a classifier; the app
// gets a profile of its own to hold it.
func TestClassifyTurns(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      map[string]any
	}{
		{"off, no classifier", "app: {app_id: bot}\nsecurity:\n  behavior:\n    profile: coding\n    classify_turns: false\n",
			map[string]any{"extends": "coding", "classify_turns": false}},
		{"on, with a classifier", "app: {app_id: bot}\nsecurity:\n  behavior:\n    classify_turns: true\n    classifier: {frequency: every_turn}\n",
			map[string]any{"classify_turns": true, "classifier": map[string]any{"frequency": "every_turn"}}},
		{"off, with a classifier", "app: {app_id: bot}\nsecurity:\n  behavior:\n    classify_turns: false\n    classifier: {frequency: every_turn}\n",
			map[string]any{"classify_turns": false, "classifier": map[string]any{"frequency": "every_turn"}}},
		{"on, no classifier: validation says it", "app: {app_id: bot}\nsecurity:\n  behavior:\n    classify_turns: true\n",
			map[string]any{"classify_turns": true}},
	} {
		res := convert(t, behaviorEngineFormat, []byte(tc.src))
		if len(res.NotCarried)+len(res.Unset) > 0 {
			t.Errorf("%s: not carried %v, unset %v", tc.name, res.NotCarried, res.Unset)
		}
		var got any
		for _, d := range res.Decls {
			if d.Kind == "profiles" {
				got = plain(d.Body)
			}
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: the profile (-want +got):\n%s", tc.name, diff)
		}
	}
}
