package schema_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charter-dev/charter/internal/testkit/testrepo"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/build"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/parser"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/artifact/bundlefile"
	"github.com/charter-dev/charter/internal/editor/schema"
	"github.com/charter-dev/charter/internal/repo/source"
	"github.com/charter-dev/charter/internal/repo/starter"
)

// compile compiles a target's JSON Schema with an independent validator,
// which also checks it against the draft 2020-12 meta-schema.
func compile(t *testing.T, target schema.Target) *jsonschema.Schema {
	t.Helper()
	b, err := schema.JSONSchema(target)
	if err != nil {
		t.Fatal(err)
	}
	return compileBytes(t, string(target)+".json", b)
}

func compileBytes(t *testing.T, name string, b []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(name, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(name)
	if err != nil {
		t.Fatalf("%s does not compile: %v", name, err)
	}
	return s
}

func instance(t *testing.T, b []byte) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// repos returns every repository the schema must accept: the starter,
// the fixtures of testdata, and every example in examples/.
func repos(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	dir := t.TempDir()
	if _, err := starter.Write(dir); err != nil {
		t.Fatal(err)
	}
	out["starter"] = dir
	for _, pattern := range []string{"testdata/*/cue.mod", "../../../examples/*/cue.mod"} {
		mods, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mods {
			out[filepath.Dir(m)] = filepath.Dir(m)
		}
	}
	return out
}

// built is a repository's JSON: its whole value and its bundle.
type built struct {
	value  []byte
	bundle bundlefile.Tree
}

func buildRepo(t *testing.T, dir string) built {
	t.Helper()
	fsys, err := source.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	repo, prog := testrepo.Load(t, fsys)
	tree, err := bundle.Build(prog, bundle.Options{CharterVersion: "test", CUEVersion: "test"})
	if err != nil {
		t.Fatal(err)
	}
	// The repository's whole value: the standard library and the user's
	// files unified, as cue export of the repository prints it.
	whole := repo.Schema.Stdlib.Unify(repo.Value)
	b, err := whole.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return built{value: b, bundle: tree}
}

// TestExamplesValidate checks that every repository charter accepts, and
// every artifact it builds, is valid against the exported JSON Schema.
func TestExamplesValidate(t *testing.T) {
	repoSchema, agentSchema, profileSchema := compile(t, schema.Repo), compile(t, schema.Agent), compile(t, schema.Profile)
	for name, dir := range repos(t) {
		t.Run(filepath.Base(name), func(t *testing.T) {
			b := buildRepo(t, dir)
			if err := repoSchema.Validate(instance(t, b.value)); err != nil {
				t.Errorf("repository value: %v", err)
			}
			var agents, profiles int
			for _, p := range b.bundle.Paths() {
				switch {
				case strings.HasPrefix(p, "agents/") && strings.HasSuffix(p, "/agent.json"):
					agents++
					if err := agentSchema.Validate(instance(t, b.bundle[p])); err != nil {
						t.Errorf("%s: %v", p, err)
					}
				case strings.HasPrefix(p, "profiles/"):
					profiles++
					if err := profileSchema.Validate(instance(t, b.bundle[p])); err != nil {
						t.Errorf("%s: %v", p, err)
					}
				}
			}
			if agents == 0 || profiles == 0 {
				t.Errorf("bundle has %d agents and %d profiles; want some of each", agents, profiles)
			}
		})
	}
}

// mutate decodes b, applies f and encodes it again.
func mutate(t *testing.T, b []byte, f func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	f(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func obj(m map[string]any, path ...string) map[string]any {
	for _, p := range path {
		m = m[p].(map[string]any)
	}
	return m
}

// TestInvalidRejected checks that the schema is not vacuous: each mistake
// charter validate rejects, the JSON Schema rejects too.
func TestInvalidRejected(t *testing.T) {
	repoSchema, agentSchema := compile(t, schema.Repo), compile(t, schema.Agent)
	b := buildRepo(t, "testdata/full")
	agentJSON := b.bundle["agents/hal/agent.json"]
	cases := []struct {
		name   string
		schema *jsonschema.Schema
		doc    []byte
		f      func(m map[string]any)
		want   string
	}{
		{"unknown field", repoSchema, b.value, func(m map[string]any) {
			obj(m, "agents", "hal", "personality")["colaboration"] = "team"
		}, "colaboration"},
		{"unknown top-level field", repoSchema, b.value, func(m map[string]any) { m["agent"] = map[string]any{} }, "agent"},
		{"bad enum", repoSchema, b.value, func(m map[string]any) {
			obj(m, "agents", "hal", "personality")["collaboration"] = "solo"
		}, "collaboration"},
		{"proficiency out of range", repoSchema, b.value, func(m map[string]any) {
			obj(m, "agents", "hal", "skills")["primary"].([]any)[0].(map[string]any)["proficiency"] = 1.5
		}, "proficiency"},
		{"negative budget", repoSchema, b.value, func(m map[string]any) {
			obj(m, "agents", "hal", "authority")["budget_limit"] = -1
		}, "budget_limit"},
		{"fractional max_tokens", repoSchema, b.value, func(m map[string]any) {
			obj(m, "agents", "hal", "model")["max_tokens"] = 1.5
		}, "max_tokens"},
		{"missing name", repoSchema, b.value, func(m map[string]any) { delete(obj(m, "agents", "hal"), "name") }, "name"},
		{"empty name", repoSchema, b.value, func(m map[string]any) { obj(m, "agents", "hal")["name"] = "" }, "name"},
		{"missing category title", repoSchema, b.value, func(m map[string]any) { delete(obj(m, "categories", "escalation"), "title") }, "title"},
		{"behavior choice of the wrong type", repoSchema, b.value, func(m map[string]any) {
			obj(m, "agents", "hal", "behavior", "escalation")["wait_minutes"] = true
		}, "wait_minutes"},
		{"bad rule action", repoSchema, b.value, func(m map[string]any) {
			obj(m, "profiles", "support", "rules", "no_delete")["action"] = "deny"
		}, "action"},
		{"bad event", repoSchema, b.value, func(m map[string]any) {
			obj(m, "behaviorTypes", "TicketBehavior")["events"] = []any{"on_lunch"}
		}, "events"},
		{"agent.json without content_hash", agentSchema, agentJSON, func(m map[string]any) { delete(m, "content_hash") }, "content_hash"},
		{"agent.json with a bad id", agentSchema, agentJSON, func(m map[string]any) { m["id"] = "../etc" }, "id"},
		{"agent.json with an unknown field", agentSchema, agentJSON, func(m map[string]any) { m["secret"] = "x" }, "secret"},
		{"agent.json with a bad rule action", agentSchema, agentJSON, func(m map[string]any) {
			obj(m, "profile")["rules"].([]any)[0].(map[string]any)["action"] = "deny"
		}, "action"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// The unchanged document is valid, so the mutation is what fails.
			if err := c.schema.Validate(instance(t, c.doc)); err != nil {
				t.Fatalf("unchanged document fails: %v", err)
			}
			err := c.schema.Validate(instance(t, mutate(t, c.doc, c.f)))
			if err == nil {
				t.Fatalf("invalid document passes")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error does not mention %q: %v", c.want, err)
			}
		})
	}
}

// TestResolvedAgentCoversAgent guards against drift: agent.json carries
// every field of #Agent.
func TestResolvedAgentCoversAgent(t *testing.T) {
	v, err := schema.Build(schema.Agent)
	if err != nil {
		t.Fatal(err)
	}
	names := func(def string) []string {
		it, err := v.LookupPath(cue.ParsePath(def)).Fields(cue.Optional(true))
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for it.Next() {
			out = append(out, it.Selector().Unquoted())
		}
		return out
	}
	resolved := names("#ResolvedAgent")
	for _, f := range names("#Agent") {
		if !slices.Contains(resolved, f) {
			t.Errorf("#Agent has field %s, #ResolvedAgent (schema/artifacts.cue) does not", f)
		}
	}
}

// TestCUE checks the printed CUE schema: one package, every definition of
// the embedded schema, evaluates on its own, the same bytes every time.
func TestCUE(t *testing.T) {
	for _, target := range schema.Targets {
		b, err := schema.CUE(target)
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(b, []byte("\npackage ")); n != 1 {
			t.Errorf("%s: %d package clauses, want 1", target, n)
		}
		again, _ := schema.CUE(target)
		if !bytes.Equal(b, again) {
			t.Errorf("%s: output differs between runs", target)
		}
		inst := build.NewContext().NewInstance("", nil)
		if err := addFile(inst, "schema.cue", b); err != nil {
			t.Fatal(err)
		}
		printed := cuecontext.New().BuildInstance(inst)
		if err := printed.Err(); err != nil {
			t.Fatalf("%s: printed schema does not evaluate: %v", target, err)
		}
		want, err := schema.Build(target)
		if err != nil {
			t.Fatal(err)
		}
		it, err := want.Fields(cue.Definitions(true))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for it.Next() {
			n++
			sel := it.Selector()
			got := printed.LookupPath(cue.MakePath(sel))
			if !got.Exists() {
				t.Errorf("%s: printed schema lacks %v", target, sel)
				continue
			}
			if !got.Equals(it.Value()) {
				t.Errorf("%s: %v differs from the embedded one", target, sel)
			}
		}
		if n < 10 {
			t.Errorf("%s: only %d definitions", target, n)
		}
	}
	repo, _ := schema.CUE(schema.Repo)
	if !bytes.Contains(repo, []byte("#Config: {")) || bytes.Contains(repo, []byte("#ResolvedAgent")) {
		t.Errorf("repo schema: want #Config and no artifact definitions")
	}
	agent, _ := schema.CUE(schema.Agent)
	if !bytes.Contains(agent, []byte("#ResolvedAgent: {")) {
		t.Errorf("agent schema: want #ResolvedAgent")
	}
}

// TestGenerate checks the generator on the shapes cuelang.org's own
// exporter gets wrong (NOTES-cue-git.md): a pattern field whose value
// refers to its label, and numeric bounds under a default.
func TestGenerate(t *testing.T) {
	const src = `
#A: {
	name!: string
	size?: *1 | number & >=0 & <=2
	tags?: [...("x" | "y")]
}
#Root: {
	items?: [N=string]: #A & {name: N}
	open?: {...}
	count!: int & >0 & <10
	kind?: "a" | "b" | 3
}
`
	inst := build.NewContext().NewInstance("", nil)
	if err := addFile(inst, "t.cue", src); err != nil {
		t.Fatal(err)
	}
	v := cuecontext.New().BuildInstance(inst)
	doc, err := schema.Generate(v, "#Root")
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	s := compileBytes(t, "root.json", b)
	for _, good := range []string{
		`{"count": 1}`,
		`{"count": 9, "items": {"a": {"name": "a", "size": 2, "tags": ["x"]}}, "open": {"anything": [1]}, "kind": 3}`,
	} {
		if err := s.Validate(instance(t, []byte(good))); err != nil {
			t.Errorf("%s: %v", good, err)
		}
	}
	for _, bad := range []string{
		`{}`,
		`{"count": 0}`,
		`{"count": 10}`,
		`{"count": 1.5}`,
		`{"count": 1, "other": 1}`,
		`{"count": 1, "items": {"a": {}}}`,
		`{"count": 1, "items": {"a": {"name": "a", "size": 3}}}`,
		`{"count": 1, "items": {"a": {"name": "a", "size": -1}}}`,
		`{"count": 1, "items": {"a": {"name": "a", "tags": ["z"]}}}`,
		`{"count": 1, "items": {"a": {"name": "a", "extra": 1}}}`,
		`{"count": 1, "kind": "c"}`,
	} {
		if err := s.Validate(instance(t, []byte(bad))); err == nil {
			t.Errorf("%s: passes, want an error", bad)
		}
	}
}

// TestGenerateRefusesUnknown checks that a construct without a JSON Schema
// equivalent is an error, not a dropped constraint.
func TestGenerateRefusesUnknown(t *testing.T) {
	inst := build.NewContext().NewInstance("", nil)
	if err := addFile(inst, "t.cue", `
import "strings"
#Root: {name?: strings.MinRunes(3)}
`); err != nil {
		t.Fatal(err)
	}
	v := cuecontext.New().BuildInstance(inst)
	if _, err := schema.Generate(v, "#Root"); err == nil {
		t.Errorf("Generate accepted strings.MinRunes; want an error")
	}
}

// TestDraft7Compatible backs docs/editors.md: the documents use only
// keywords that mean the same in draft-07, so draft-07 tools (such as
// yaml-language-server) read them. Declared as draft-07, they still
// accept valid documents and reject invalid ones.
func TestDraft7Compatible(t *testing.T) {
	b := buildRepo(t, "testdata/full")
	for _, c := range []struct {
		target schema.Target
		doc    []byte
	}{{schema.Repo, b.value}, {schema.Agent, b.bundle["agents/hal/agent.json"]}, {schema.Profile, b.bundle["profiles/support.json"]}} {
		js, err := schema.JSONSchema(c.target)
		if err != nil {
			t.Fatal(err)
		}
		js = bytes.Replace(js, []byte(schema.Draft), []byte("http://json-schema.org/draft-07/schema#"), 1)
		s := compileBytes(t, string(c.target)+"-draft7.json", js)
		if err := s.Validate(instance(t, c.doc)); err != nil {
			t.Errorf("%s: %v", c.target, err)
		}
		bad := mutate(t, c.doc, func(m map[string]any) { m["no_such_field"] = 1 })
		if err := s.Validate(instance(t, bad)); err == nil {
			t.Errorf("%s: unknown field passes under draft-07", c.target)
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
