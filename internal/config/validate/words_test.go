package validate

import (
	"math/big"
	"testing"
	"testing/fstest"

	"github.com/charter-dev/charter/internal/config/load"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	"github.com/google/go-cmp/cmp"
)

func TestDidYouMean(t *testing.T) {
	opts := []string{"ask_user", "email_options"}
	tests := []struct {
		name       string
		candidates []string
		want       string
	}{
		{"ask_usr", opts, `; did you mean "ask_user"?`},
		{"ASK_USER", opts, `; did you mean "ask_user"?`},
		{"email_optoins", opts, `; did you mean "email_options"?`}, // a transposition is one edit
		{"sometimes", opts, "; valid options: ask_user, email_options"},
		{"x", nil, ""},
		{"zz", []string{"m", "l", "k", "j", "i", "h", "g", "f", "e", "d", "c", "b", "a"},
			"; valid options include: a, b, c, d, e, f, g, h, i, j, k, l, ..."},
	}
	for _, tt := range tests {
		if got := didYouMean(tt.name, tt.candidates, "options"); got != tt.want {
			t.Errorf("didYouMean(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"kitten", "sitting", 3}, {"ab", "ba", 1}, {"héllo", "hello", 1},
	} {
		if got := distance(tt.a, tt.b); got != tt.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestDescribe(t *testing.T) {
	ctx := cuecontext.New()
	for _, tt := range []struct{ schema, want string }{
		{`number & >=0 & <=1`, "a number from 0 to 1"},
		{`int & >0`, "an integer more than 0"},
		{`number & >=0`, "a number of at least 0"},
		{`int & <10`, "an integer of at most less than 10"},
		{`string & !=""`, "a non-empty string"},
		{`string`, "a string"},
		{`bool`, "a boolean"},
		{`[...string]`, "a list"},
		{`"low" | "medium" | "high"`, "one of: high, low, medium"},
		{`string | number`, "a string or number"},
	} {
		v := ctx.CompileString(tt.schema)
		if got := describe(v); got != tt.want {
			t.Errorf("describe(%s) = %q, want %q", tt.schema, got, tt.want)
		}
	}
}

func TestEnumOptions(t *testing.T) {
	ctx := cuecontext.New()
	for _, tt := range []struct {
		schema string
		want   []string
	}{
		{`"b" | "a"`, []string{"a", "b"}},
		{`2 | 3 | 4`, []string{"2", "3", "4"}},
		{`string`, nil},
		{`"a" | string`, nil},
	} {
		got := enumOptions(ctx.CompileString(tt.schema))
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("enumOptions(%s) (-want +got):\n%s", tt.schema, diff)
		}
	}
}

func TestPath(t *testing.T) {
	for _, tt := range []struct {
		p    Path
		want string
	}{
		{Path{"agents", "sarah", "skills", "primary", Index(2), "id"}, "agents.sarah.skills.primary[2].id"},
		{Path{"agents", "../x"}, `agents."../x"`},
		{Path{"agents", "A B", "name"}, `agents."A B".name`},
		{Path{"models", "gpt-4o"}, `models."gpt-4o"`},
		{nil, ""},
	} {
		if got := tt.p.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.p, got, tt.want)
		}
	}
}

func TestRelPath(t *testing.T) {
	for _, tt := range []struct {
		in   []string
		want Path
	}{
		{[]string{"#Agent", "skills", "primary", "0", "id"}, Path{"skills", "primary", "[0]", "id"}},
		{[]string{"agents", `"0"`, "name"}, Path{"agents", "0", "name"}},
		{[]string{"agents", `"a b"`}, Path{"agents", "a b"}},
	} {
		if diff := cmp.Diff(tt.want, relPath(tt.in)); diff != "" {
			t.Errorf("relPath(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestChildren(t *testing.T) {
	ctx := cuecontext.New()
	v := ctx.CompileString(`
s: {a: 1, b: 2}
l: [1, 2]
bad: {x: 1} & {x: 2, y: 3}
badList: [{a: 1} & {a: 2}, 3]
str: "x"
`)
	for _, tt := range []struct {
		path   string
		kind   cue.Kind
		labels []string
	}{
		{"s", cue.StructKind, []string{"a", "b"}},
		{"l", cue.ListKind, []string{"[0]", "[1]"}},
		{"bad", cue.StructKind, []string{"x", "y"}},
		{"badList", cue.ListKind, []string{"[0]", "[1]"}},
		{"str", cue.StringKind, nil},
	} {
		k, kids := children(v.LookupPath(cue.ParsePath(tt.path)))
		var labels []string
		for _, c := range kids {
			labels = append(labels, c.label)
		}
		if k != tt.kind || !cmp.Equal(labels, tt.labels) {
			t.Errorf("children(%s) = %v %q, want %v %q", tt.path, k, labels, tt.kind, tt.labels)
		}
	}
}

func TestDecodeJSONMatchesDecode(t *testing.T) {
	type T struct {
		Params map[string]any `json:"params"`
		Any    any            `json:"any"`
		List   []any          `json:"list"`
		N      float64        `json:"n"`
		I      int            `json:"i"`
		P      *float64       `json:"p"`
	}
	v := cuecontext.New().CompileString(`{
		params: {a: 3, b: 3.0, c: [1, 2.5, {d: 4}], e: 12345678901234567890, f: "x", g: true, h: null}
		any: {x: [1, {y: 2}]}
		list: [1, 1.5]
		n: 2
		i: 7
		p: 0.5
	}`)
	var want, got T
	if err := v.Decode(&want); err != nil {
		t.Fatal(err)
	}
	if err := decodeJSON(v, &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b *big.Int) bool { return a.Cmp(b) == 0 })); diff != "" {
		t.Errorf("decodeJSON differs from Value.Decode (-Decode +decodeJSON):\n%s", diff)
	}
}

func TestShapeAdds(t *testing.T) {
	ctx := cuecontext.New()
	v := ctx.CompileString(`
#A: {a?: string, n!: int, b?: [...{c?: int}], p?: [string]: {x?: "a" | "b"}}
#B: {a?: string, b?: [...{c?: int | *3}]}
#C: {n?: *1 | int}
#D: {kind: "x", a?: string}
#F: {r?: {min: number, max: number}}
#E: {l?: *[1] | [...int]}
`)
	for def, want := range map[string]bool{"#A": false, "#B": true, "#C": true, "#D": true, "#E": true, "#F": false} {
		if got := shapeOf(v.LookupPath(cue.ParsePath(def)), 0).adds; got != want {
			t.Errorf("shape of %s: adds = %v, want %v", def, got, want)
		}
	}
}

// The schema adds nothing to what users write: declarations without a
// standard library value are decoded from the user's own value.
func TestSchemaAddsNothing(t *testing.T) {
	repo, _, err := load.Load(fstest.MapFS{"a.cue": {Data: []byte("package charter\n")}}, "repo")
	if err != nil {
		t.Fatal(err)
	}
	for name, d := range schemaDefs(repo.Schema) {
		if d.shape.adds {
			t.Errorf("%s has a default or a regular field; decoding from the user's value would lose it", name)
		}
	}
}
