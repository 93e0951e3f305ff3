package validate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/build"
	"cuelang.org/go/cue/cuecontext"
	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/testkit/gen"
)

// sameJSON reports whether two JSON texts hold the same value, numbers
// compared by value (CUE writes the float 0e0 as 0).
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return cmp.Equal(x, y)
}

// The syntax shortcut gives every declaration of the examples and of a
// generated repository the model that decoding CUE's value gives.
func TestLiteralJSONMatchesCUE(t *testing.T) {
	dir := t.TempDir()
	if err := gen.Write(dir, 50); err != nil {
		t.Fatal(err)
	}
	roots := []string{dir, "../../../examples/assistant", "../../../examples/dev-team"}
	shortcuts := 0
	for _, root := range roots {
		repo, _, err := load.Load(os.DirFS(root), root)
		if err != nil {
			t.Fatal(err)
		}
		agents := repo.Value.LookupPath(cue.ParsePath("agents"))
		it, err := agents.Fields()
		if err != nil {
			t.Fatal(err)
		}
		for it.Next() {
			b, ok := literalJSON(it.Value())
			if !ok {
				continue
			}
			shortcuts++
			var fast, slow model.Agent
			if err := decodeJSONBytes(b, &fast); err != nil {
				t.Fatal(err)
			}
			if err := decodeJSON(it.Value(), &slow); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(slow, fast); diff != "" {
				t.Errorf("%s: agents.%s (-CUE +syntax):\n%s", filepath.Base(root), it.Selector(), diff)
			}
		}
	}
	if shortcuts < 50 {
		t.Errorf("the syntax shortcut decoded %d agents, want the 50 generated at least", shortcuts)
	}
}

func TestLiteralJSON(t *testing.T) {
	tests := []struct {
		src  string
		want string // "" when the shortcut does not apply
	}{
		{`{a: 1, b: "x", c: [true, false, null], d: {e: -0.5}, "f-g": 1e3}`, `{"a":1,"b":"x","c":[true,false,null],"d":{"e":-0.5},"f-g":1e3}`},
		{"{s: \"\"\"\n\ttwo\n\tlines\n\t\"\"\"}", `{"s":"two\nlines"}`},
		{`{s: #"raw \n"#}`, `{"s":"raw \\n"}`},
		{`{a: b: c: 1}`, `{"a":{"b":{"c":1}}}`},
		{`{a: 1, a: 1}`, ""},          // a label twice: CUE unifies
		{`{a: 1_000}`, ""},            // not a JSON number
		{`{a: 0x10}`, ""},             //
		{`{a: 1Ki}`, ""},              //
		{`{a: 'bytes'}`, ""},          // base64 in JSON
		{`{a: "x\(1)"}`, ""},          // interpolation
		{`{a: *1 | 2}`, ""},           // default
		{`{a?: 1}`, ""},               // optional
		{`{_a: 1}`, ""},               // hidden
		{`{#a: 1}`, ""},               // definition
		{`{a: [1, ...]}`, ""},         // open list
		{`{a: x}`, ""},                // reference
		{`{a: 1 + 1}`, ""},            // expression
		{`{for x in [1] {a: x}}`, ""}, // comprehension
		{`{a: 1, {b: 2}}`, ""},        // embedding
		{`{[string]: int, a: 1}`, ""}, // pattern
		{`{a: int}`, ""},              // a type
		{`{a: -x}`, ""},               //
		{`{a: "\u00e9\t<>&"}`, `{"a":"é\t\u003c\u003e\u0026"}`},
	}
	ctx := cuecontext.New()
	for _, tt := range tests {
		inst := build.NewContext().NewInstance("", nil)
		if err := addFile(inst, "t.cue", "package t\nx: y: "+tt.src+"\n"); err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		v := ctx.BuildInstance(inst).LookupPath(cue.ParsePath("x.y"))
		b, ok := literalJSON(v)
		got := ""
		if ok {
			got = string(b)
		}
		if got != tt.want {
			t.Errorf("literalJSON(%s) = %q, want %q", tt.src, got, tt.want)
		}
		if ok && v.Validate(cue.Concrete(true)) == nil {
			cueJSON, err := v.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if !sameJSON(t, b, cueJSON) {
				t.Errorf("%s: syntax gives %s, CUE %s", tt.src, b, cueJSON)
			}
		}
	}
}

// FuzzLiteralJSON checks the syntax shortcut against CUE on any input it
// accepts: the same value, or CUE rejects the input.
func FuzzLiteralJSON(f *testing.F) {
	for _, s := range []string{
		`{a: 1, b: "x", c: [true, null], d: {e: -0.5}}`,
		`{a: b: c: 1.5e-3}`,
		"{s: \"\"\"\n\tx\n\t\"\"\"}",
		`{"a b": #"\n"#, c: []}`,
		`{a: {x: 1}, b: [{y: [2]}]}`,
	} {
		f.Add(s)
	}
	ctx := cuecontext.New()
	f.Fuzz(func(t *testing.T, src string) {
		inst := build.NewContext().NewInstance("", nil)
		if err := addFile(inst, "t.cue", "package t\nx: y: "+src+"\n"); err != nil {
			return
		}
		root := ctx.BuildInstance(inst)
		v := root.LookupPath(cue.ParsePath("x.y"))
		b, ok := literalJSON(v)
		if !ok || root.Err() != nil || v.Validate(cue.Concrete(true)) != nil {
			return
		}
		cueJSON, err := v.MarshalJSON()
		if err != nil {
			return
		}
		if !sameJSON(t, b, cueJSON) {
			t.Errorf("%q: syntax gives %s, CUE %s", src, b, cueJSON)
		}
	})
}
