package validate

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"strings"
	"testing"
	"time"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/build"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/parser"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	cuefiles "github.com/charter-dev/charter/cue"
	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/testkit/gen"
)

// A matcher judges the schema it is compiled from only if that schema uses
// nothing the evaluated value hides from it: every embedded schema file is
// checked, and every definition declarations are checked against has a
// matcher (else the fast path would silently be off for its kind).
func TestEmbeddedSchemaIsMatchable(t *testing.T) {
	files, err := fs.Glob(cuefiles.FS, "schema/*.cue")
	if err != nil || len(files) == 0 {
		t.Fatalf("no schema files: %v", err)
	}
	for _, name := range files {
		src, err := fs.ReadFile(cuefiles.FS, name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(name, src)
		if err != nil {
			t.Fatal(err)
		}
		if bad := matchableSchema(f); bad != "" {
			t.Errorf("%s uses %s: matchers compiled from it could accept what CUE rejects", name, bad)
		}
	}
	defs := schemaDefs(testSchema(t))
	for name, d := range defs {
		if d.match == nil {
			t.Errorf("%s has no matcher: its declarations are all checked by CUE, one goroutine", name)
		}
	}
}

func TestMatchableSchema(t *testing.T) {
	tests := []struct{ src, bad string }{
		{`#A: {a?: string, b?: [...int], c?: [string]: int, d?: [N=string]: _, e?: {...}}`, ""},
		{`#A: {a?: string, if a == "x" {b!: int}}`, "a comprehension or let"},
		{`#A: {for k, v in x {(k): v}}`, "a comprehension or let"},
		{`#A: {let x = 1, a?: x}`, "a comprehension or let"},
		{`#A: {[=~"^x"]: int, ...}`, "a pattern constraint other than [string]"},
		{`#A: {[string & !="a"]: int}`, "a pattern constraint other than [string]"},
	}
	for _, tt := range tests {
		f, err := parser.ParseFile("t.cue", tt.src)
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		if got := matchableSchema(f); got != tt.bad {
			t.Errorf("matchableSchema(%s) = %q, want %q", tt.src, got, tt.bad)
		}
	}
}

// testSchema is the embedded schema, as a repository loads it.
func testSchema(t testing.TB) *load.Schema {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/x.cue", []byte("package charter\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	repo, _, err := load.Load(os.DirFS(dir), dir)
	if err != nil {
		t.Fatal(err)
	}
	return repo.Schema
}

// verdict compiles src (a declaration's value) as the user's files would
// hold it and returns what CUE says of it against def (the check
// validate.check does for a declaration with no standard library value),
// and what def's matcher says; literal is false when src is not a plain
// literal, so the matcher is never asked.
func verdict(ctx *cue.Context, def schemaDef, src string) (cueOK, matchOK, literal bool) {
	inst := build.NewContext().NewInstance("", nil)
	if err := addFile(inst, "t.cue", "package t\nx: y: "+src+"\n"); err != nil {
		return false, false, false
	}
	root := ctx.BuildInstance(inst)
	user := root.LookupPath(cue.ParsePath("x.y"))
	if root.Err() != nil || !user.Exists() {
		return false, false, false
	}
	if _, ok := literalJSON(user); !ok {
		return false, false, false
	}
	f := user.Source().(*ast.Field)
	// A fresh unification each time: the definition is shared.
	cueOK = def.value.Unify(user).Validate(cue.Concrete(true)) == nil
	return cueOK, def.match.match(f.Value), true
}

// seedDecls returns the declarations of the examples, the standard library
// and a small generated repository, as CUE source, by definition name.
func seedDecls(t testing.TB) map[string][]string {
	t.Helper()
	dir := t.TempDir()
	if err := gen.Write(dir, 12); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	add := func(f *ast.File) {
		for _, d := range f.Decls {
			top, ok := d.(*ast.Field)
			if !ok {
				continue
			}
			label, _, _ := ast.LabelName(top.Label)
			var def string
			for _, k := range kinds {
				if k.field == label {
					def = k.def
				}
			}
			body, ok := top.Value.(*ast.StructLit)
			if def == "" || !ok {
				continue
			}
			for _, e := range body.Elts {
				if decl, ok := e.(*ast.Field); ok {
					b, err := format.Node(decl.Value)
					if err == nil {
						out[def] = append(out[def], string(b))
					}
				}
			}
		}
	}
	for _, root := range []string{dir, "../../../examples/assistant", "../../../examples/dev-team"} {
		err := fs.WalkDir(os.DirFS(root), ".", func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || path.Ext(p) != ".cue" || strings.HasPrefix(p, "cue.mod") {
				return err
			}
			src, err := os.ReadFile(root + "/" + p)
			if err != nil {
				return err
			}
			f, err := parser.ParseFile(p, src)
			if err != nil {
				return err
			}
			add(f)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	std, _ := fs.Glob(cuefiles.FS, "stdlib/*.cue")
	for _, name := range std {
		src, _ := fs.ReadFile(cuefiles.FS, name)
		f, err := parser.ParseFile(name, src)
		if err != nil {
			t.Fatal(err)
		}
		add(f)
	}
	return out
}

// mutate changes one thing in a declaration's syntax: a value replaced by
// another of the pool or of the declaration itself, a field removed, a
// field added or renamed.
func mutate(r *rand.Rand, src string) string {
	x, err := parser.ParseExpr("decl", src)
	if err != nil {
		return src
	}
	var fields []*ast.Field
	var structs []*ast.StructLit
	var values []ast.Expr
	ast.Walk(x, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			fields = append(fields, n)
			values = append(values, n.Value)
		case *ast.StructLit:
			structs = append(structs, n)
		}
		return true
	}, nil)
	if len(fields) == 0 || len(structs) == 0 {
		return src
	}
	pool := []string{`""`, `"x"`, `"low"`, `"active"`, `"persistent"`, `"tools"`, `"allow"`, `0`, `-1`, `1`, `1.0`,
		`0.5`, `2`, `2.5`, `3`, `1e3`, `-0.0`, `0.9999999999999999999999`, `1.0000000000000000000001`, `null`,
		`true`, `false`, `[]`, `["a"]`, `[1]`, `[{}]`, `{}`, `{a: 1}`, `{id: "x", name: "X"}`, `{type: "x"}`}
	names := []string{"name", "type", "kind", "id", "status", "tools", "allowed", "denied", "nmae", "x", "model",
		"temperature", "traits", "params", "description", "required", "retention_days", "category", "step", "agent"}
	f := fields[r.IntN(len(fields))]
	switch r.IntN(5) {
	case 0, 1: // another value
		var v ast.Expr
		if r.IntN(2) == 0 {
			v, _ = parser.ParseExpr("v", pool[r.IntN(len(pool))])
		} else if b, err := format.Node(values[r.IntN(len(values))]); err == nil {
			// A copy: the value may hold f itself.
			v, _ = parser.ParseExpr("v", b)
		}
		if v != nil {
			f.Value = v
		}
	case 2: // a field removed
		s := structs[r.IntN(len(structs))]
		if len(s.Elts) > 0 {
			i := r.IntN(len(s.Elts))
			s.Elts = append(s.Elts[:i:i], s.Elts[i+1:]...)
		}
	case 3: // a field added
		s := structs[r.IntN(len(structs))]
		v, _ := parser.ParseExpr("v", pool[r.IntN(len(pool))])
		s.Elts = append(s.Elts, &ast.Field{Label: ast.NewIdent(names[r.IntN(len(names))]), Value: v})
	case 4: // a field renamed
		f.Label = ast.NewIdent(names[r.IntN(len(names))])
	}
	b, err := format.Node(x)
	if err != nil {
		return src
	}
	return string(b)
}

// The matcher never accepts what CUE rejects, on the declarations of the
// examples, the standard library and generated agents and on thousands of
// mutations of them; and it accepts nearly everything CUE accepts, so the
// fast path does the work.
func TestMatcherAgreesWithCUE(t *testing.T) {
	defs := schemaDefs(testSchema(t))
	ctx := cuecontext.New()
	seeds := seedDecls(t)
	r := rand.New(rand.NewPCG(1, 2))
	rounds := 40
	if testing.Short() {
		rounds = 4
	}
	var cueOK, both, checked int
	for def, decls := range seeds {
		d := defs[def]
		for _, src := range decls {
			if c, m, lit := verdict(ctx, d, src); lit {
				// A seed CUE rejects on its own extends the standard
				// library's declaration (examples/assistant).
				if c && !m {
					t.Errorf("%s: the matcher rejects a seed CUE accepts:\n%s", def, src)
				}
			}
			for range rounds {
				mutant := src
				for range 1 + r.IntN(3) {
					mutant = mutate(r, mutant)
				}
				c, m, lit := verdict(ctx, d, mutant)
				if !lit {
					continue
				}
				checked++
				if m && !c {
					t.Errorf("%s: the matcher accepts what CUE rejects:\n%s", def, mutant)
				}
				if c {
					cueOK++
					if m {
						both++
					}
				}
			}
		}
	}
	t.Logf("%d mutants: CUE accepts %d, the matcher %d of those", checked, cueOK, both)
	if checked < 200 || cueOK == 0 {
		t.Fatalf("too few mutants checked (%d, %d valid)", checked, cueOK)
	}
	if float64(both) < 0.9*float64(cueOK) {
		t.Errorf("the matcher accepts %d of the %d mutants CUE accepts: under 90%%, most valid declarations would go to CUE", both, cueOK)
	}
}

func TestMatcherCases(t *testing.T) {
	defs := schemaDefs(testSchema(t))
	ctx := cuecontext.New()
	base := `name: "A", type: "t"`
	tests := []struct {
		def, src string
		want     bool
	}{
		{"#Agent", `{` + base + `}`, true},
		{"#Agent", `{name: "A"}`, false},                         // type! missing
		{"#Agent", `{` + base + `, nmae: "x"}`, false},           // closed
		{"#Agent", `{name: "", type: "t"}`, false},               // !=""
		{"#Agent", `{` + base + `, status: "retired"}`, false},   // enum
		{"#Agent", `{` + base + `, autonomy_level: null}`, true}, // null | ...
		{"#Agent", `{` + base + `, model: {provider: "p", model_id: "m", temperature: 2}}`, true},
		{"#Agent", `{` + base + `, model: {provider: "p", model_id: "m", temperature: 2.0000000000000000001}}`, false},
		{"#Agent", `{` + base + `, model: {provider: "p", model_id: "m", max_tokens: 1.0}}`, false}, // int
		{"#Agent", `{` + base + `, model: {provider: "p", model_id: "m", max_tokens: 0}}`, false},   // >0
		{"#Agent", `{` + base + `, personality: {openness: -0.0}}`, true},
		{"#Agent", `{` + base + `, personality: {openness: 1e0}}`, true},
		{"#Agent", `{` + base + `, memory: {type: "none", retention_days: null}}`, true},
		{"#Agent", `{` + base + `, memory: {type: "none", retention_days: 0}}`, false},
		{"#Agent", `{` + base + `, skills: {primary: [{id: "a", name: "A", proficiency: 1}]}}`, true},
		{"#Agent", `{` + base + `, skills: {primary: [{id: "a"}]}}`, false},
		{"#Agent", `{` + base + `, presets: ["a", 1]}`, false},
		{"#Agent", `{` + base + `, behaviors: [{type: "x", params: {anything: {at: ["all"]}}}]}`, true},
		{"#Agent", `{` + base + `, output: {type: "object", anything: 1}}`, true},
		{"#Agent", `{` + base + `, output: []}`, false},
		{"#BehaviorType", `{kind: "tools", tools: {t: {description: "d", destructive: true}}}`, true},
		{"#BehaviorType", `{kind: "tools", tools: {t: {destructive: true}}}`, false},
		{"#BehaviorType", `{kind: "tools", events: ["on_timeout", "never"]}`, false},
	}
	for _, tt := range tests {
		c, m, lit := verdict(ctx, defs[tt.def], tt.src)
		if !lit {
			t.Errorf("%s: not a literal", tt.src)
			continue
		}
		if c != tt.want {
			t.Errorf("%s %s: CUE says %v, the table %v", tt.def, tt.src, c, tt.want)
		}
		if m != tt.want {
			t.Errorf("%s %s: the matcher says %v, want %v", tt.def, tt.src, m, tt.want)
		}
	}
}

// FuzzMatcher compares the matcher with CUE on any declaration: the
// matcher may reject what CUE accepts, never the other way round.
func FuzzMatcher(f *testing.F) {
	for def, decls := range seedDecls(f) {
		for _, src := range decls[:min(3, len(decls))] {
			f.Add(def, src)
		}
	}
	// Literals at the edges: bounds, kinds of number, quoting, nesting.
	base := `name: "A", type: "t"`
	for _, src := range []string{
		`{` + base + `, model: {provider: "p", model_id: "m", temperature: 2.0e0, max_tokens: 1}}`,
		`{` + base + `, model: {provider: "p", model_id: "m", temperature: -0.0, max_tokens: 12345678901234567890}}`,
		`{` + base + `, personality: {openness: 1e-400, traits: [#"a"#, """` + "\n\t\tb\n\t\t" + `"""]}}`,
		`{` + base + `, memory: {type: "none", retention_days: null, retention_overrides: [{category: "c", retention_days: 1}]}}`,
		`{"name": "A", "type": "t", output: {"x": [1, {y: null}]}, status: "\u0061ctive"}`,
	} {
		f.Add("#Agent", src)
	}
	f.Add("#Category", `{title: "T", settings: {s: {line: "l", default: 1, range: {min: 0, max: 1}}}}`)
	f.Add("#Flow", `{steps: [{name: "n", agent: "a", next: [{step: "s", if: {field: "f", equals: true}}]}]}`)
	defs := schemaDefs(testSchema(f))
	ctx := cuecontext.New()
	f.Fuzz(func(t *testing.T, def, src string) {
		d, ok := defs[def]
		if !ok || d.match == nil {
			return
		}
		if c, m, lit := verdict(ctx, d, src); lit && m && !c {
			t.Errorf("%s: the matcher accepts what CUE rejects:\n%s", def, src)
		}
	})
}

// Validation with the matchers gives what CUE alone gives (the same
// diagnostics, the same model) on the examples and a generated repository,
// standard library included, and with mistakes the matchers pass to CUE.
func TestMatchersGiveWhatCUEGives(t *testing.T) {
	gendir := t.TempDir()
	if err := gen.Write(gendir, 60); err != nil {
		t.Fatal(err)
	}
	broken := t.TempDir()
	if err := gen.Write(broken, 5); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(broken+"/agents/zz.cue", []byte(`package charter

// One mistake an agent, each of a kind a matcher must see.
agents: {
	zz1: {name: "Z", type: "nope"}
	zz2: {name: "Z", type: "support", status: "retired"}
	zz3: {name: "Z", type: "support", tools: {denied: ["x", 1]}}
	zz4: {name: "Z", type: "support", model: {provider: "p", model_id: "m", temperature: 2.5}}
	zz5: {name: "Z", type: "support", model: {provider: "p", model_id: "m", max_tokens: 1.0}}
	zz6: {name: "Z", type: "support", stauts: "active"}
	zz7: {type: "support"}
	zz8: {name: "", type: "support"}
	zz9: {name: "Z", type: "support", memory: {type: "none", retention_days: null}}
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{gendir, broken, "../../../examples/assistant", "../../../examples/dev-team"} {
		validate := func(matchers bool) *Result {
			// Each run decodes the standard library afresh, so the two
			// runs do not share its declarations.
			stdlibDecls.Clear()
			repo, _, err := load.Load(os.DirFS(root), root)
			if err != nil {
				t.Fatal(err)
			}
			return runWith(repo, 2, matchers)
		}
		cueOnly, matched := validate(false), validate(true)
		if root == broken && len(matched.Diagnostics) < 8 {
			t.Errorf("want a diagnostic for each of 8 mistakes, got %v", matched.Diagnostics)
		}
		if diff := cmp.Diff(cueOnly.Diagnostics, matched.Diagnostics); diff != "" {
			t.Errorf("%s: diagnostics (-CUE +matchers):\n%s", root, diff)
		}
		if diff := cmp.Diff(cueOnly.Config, matched.Config, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: model (-CUE +matchers):\n%s", root, diff)
		}
		if diff := cmp.Diff(cueOnly.Invalid, matched.Invalid); diff != "" {
			t.Errorf("%s: invalid declarations (-CUE +matchers):\n%s", root, diff)
		}
	}
}

// A number whose exponent would take big.Rat forever to spell out is left
// to CUE, at once.
func TestMatcherHugeExponent(t *testing.T) {
	defs := schemaDefs(testSchema(t))
	ctx := cuecontext.New()
	done := make(chan bool)
	go func() {
		_, m, _ := verdict(ctx, defs["#Agent"], `{name: "A", type: "t", model: {provider: "p", model_id: "m", temperature: 1e999999999}}`)
		done <- m
	}()
	select {
	case m := <-done:
		if m {
			t.Error("the matcher accepts temperature 1e999999999")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the matcher did not return in 20 s")
	}
}

// A struct written inside a disjunction or a conjunction of a definition is
// closed, as every struct of a definition is; v.Expr() gives such an
// argument evaluated on its own, where it looks open. The matcher must not
// take that for an open struct (it accepted unknown fields CUE rejects).
func TestMatcherClosedDisjunctsAndConjuncts(t *testing.T) {
	ctx := cuecontext.New()
	tests := []struct {
		schema, src string
		want        bool // what CUE says
	}{
		{`#A: {a?: null | {x?: int}}`, `{a: {x: 1, z: 1}}`, false},
		{`#A: {a?: {x?: int} | string}`, `{a: {x: 1, z: 1}}`, false},
		{`#A: {a?: {x?: int} | {y!: int}}`, `{a: {x: 1, z: 1}}`, false},
		{`#A: {a?: null | [...{x?: int}]}`, `{a: [{x: 1, z: 1}]}`, false},
		{`#A: {a?: [...({x?: int} | {y!: int})]}`, `{a: [{x: 1, z: 1}]}`, false},
		{`#A: {a?: {x?: int} & {y?: int}}`, `{a: {z: 1}}`, false},
		{`#A: {a?: [...({x?: int} & {y?: int})]}`, `{a: [{z: 1}]}`, false},
		// Closed by a definition of their own, or open: judged as before.
		{`#B: {x?: int}, #A: {a?: null | #B}`, `{a: {x: 1, z: 1}}`, false},
		{`#B: {x?: int}, #A: {a?: null | #B}`, `{a: {x: 1}}`, true},
		{`#A: {a?: null | {x?: int, ...}}`, `{a: {x: 1, z: 1}}`, true},
		{`#A: {a?: {x?: int} & {y?: int}}`, `{a: {x: 1, y: 2}}`, true},
	}
	for _, tt := range tests {
		def := ctx.CompileString(tt.schema).LookupPath(cue.MakePath(cue.Def("#A")))
		user := ctx.CompileString("x: " + tt.src).LookupPath(cue.ParsePath("x"))
		if err := def.Err(); err != nil {
			t.Fatalf("%s: %v", tt.schema, err)
		}
		if c := def.Unify(user).Validate(cue.Concrete(true)) == nil; c != tt.want {
			t.Errorf("%s %s: CUE says %v, the table %v", tt.schema, tt.src, c, tt.want)
		}
		m, ok := matcherOf(def, 0)
		if !ok {
			continue // no matcher: CUE judges
		}
		if got := m.match(user.Source().(*ast.Field).Value); got && !tt.want {
			t.Errorf("%s: the matcher accepts %s, which CUE rejects", tt.schema, tt.src)
		}
	}
}

// addFile parses src and adds it to inst (build.Instance.AddFile, which
// is deprecated, did both).
func addFile(inst *build.Instance, name string, src any) error {
	f, err := parser.ParseFile(name, src)
	if err != nil {
		return err
	}
	return inst.AddSyntax(f)
}
