package export

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/config/model"
)

// everyTable is a program whose runtimes table has an entry per target.
func everyTable() *compiler.Program {
	rt := map[string]*model.Runtime{
		Runtime:         {Tools: table[Runtime], Models: map[string]string{"claude-sonnet-4": "sonnet"}},
		"openai-agents": {Models: map[string]string{"gpt-4.1": "gpt-4.1"}},
		"adk":           {Tools: map[string]string{"tools.read_file": "read_file", "other.read_file": "list_dir"}},
		"opencode":      {Tools: map[string]string{"read": "read_file", "edit": "write_file", "bash": "run_bash"}},
		"gemini-cli":    {Tools: map[string]string{"read_file": "read_file", "write_file": "write_file", "replace": "write_file", "run_shell_command": "run_bash"}},
	}
	return &compiler.Program{Config: &model.Config{Runtimes: rt}}
}

func agents(as ...*compiler.Agent) []Agent {
	var out []Agent
	for _, a := range as {
		out = append(out, Agent{Agent: a, Description: "Does: things", Prompt: "You are \"it\".\n- not a list\n"})
	}
	return out
}

// Every target gives the same bytes for the same agents, and never a
// tool the agent may not call.
func TestDeterministicAndNeverWider(t *testing.T) {
	p := everyTable()
	mk := func() []Agent {
		return agents(agent("ann", model.Tools{Denied: []string{"write_file"}}, "read_file", "write_file", "list_dir"),
			agent("bo", model.Tools{}, "run_bash", "read_file"), agent("cy", model.Tools{}))
	}
	for _, tg := range Targets {
		t.Run(tg.Name, func(t *testing.T) {
			o := Options{Main: "ann", All: true}
			p.Agents = nil
			for _, a := range mk() {
				p.Agents = append(p.Agents, a.Agent)
			}
			r1, err := tg.Export(p, mk(), o)
			if err != nil {
				t.Fatal(err)
			}
			r2, err := tg.Export(p, mk(), o)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(r1, r2); diff != "" {
				t.Fatalf("two exports differ:\n%s", diff)
			}
			for _, f := range r1.Files {
				if !strings.Contains(f.Path, "ann") {
					continue
				}
				for _, bad := range []string{"Write", "\"edit\"", "replace", "write_file\","} {
					if tg.Name != "claude-code" && tg.Name != "claude-agent-sdk" && strings.Contains(string(f.Data), bad) {
						t.Errorf("%s gives ann, who is denied write_file, %s:\n%s", f.Path, bad, f.Data)
					}
				}
			}
		})
	}
}

func TestNames(t *testing.T) {
	p := everyTable()
	for _, c := range []struct {
		target string
		ids    []string
		want   string
	}{
		{"claude-code", []string{"a_b", "a-b"}, `agents a_b and a-b would both be "a-b" in Claude Code`},
		{"claude-agent-sdk", []string{"a_b", "a-b"}, `would both be "a-b"`},
		{"adk", []string{"a_b", "a-b"}, `agents a_b and a-b would both be "a_b" in ADK`},
		{"adk", []string{"9lives"}, "ADK needs an agent name that is a Python identifier"},
		{"adk", []string{"user"}, `ADK reserves the agent name "user"`},
		{"adk", []string{"class"}, `"class" is a Python keyword`},
	} {
		var as []*compiler.Agent
		for _, id := range c.ids {
			as = append(as, agent(id, model.Tools{}))
		}
		tg, _ := Lookup(c.target)
		_, err := tg.Export(p, agents(as...), Options{Main: c.ids[0], All: true})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: err = %v, want %q", c.target, c.ids, err, c.want)
		}
	}
}

// A model the table names is mapped; any other is refused, never guessed
// (before, claude-code guessed from a substring: "my-sonnet-clone" was
// sonnet).
func TestModels(t *testing.T) {
	p := everyTable()
	a := agent("ann", model.Tools{}, "read_file")
	a.Decl.Model = &model.AgentModel{ModelID: "claude-sonnet-4"}
	f, _, err := ClaudeCodeSubagent(p, Agent{Agent: a}, Options{})
	if err != nil || !bytes.Contains(f, []byte("\nmodel: sonnet\n")) {
		t.Errorf("mapped model: %v\n%s", err, f)
	}
	a.Decl.Model.ModelID = "my-sonnet-clone"
	for _, tg := range Targets {
		_, err := tg.Export(p, agents(a), Options{})
		if err == nil || !strings.Contains(err.Error(), `model "my-sonnet-clone" is not in runtimes.`) {
			t.Errorf("%s: err = %v", tg.Name, err)
		}
	}
}

func TestStrict(t *testing.T) {
	p := everyTable()
	a := agent("ann", model.Tools{}, "read_file", "mark_done")
	for _, tg := range Targets {
		if tg.Name == "openai-agents" {
			continue // every tool is a function tool: nothing is unmapped
		}
		r, err := tg.Export(p, agents(a), Options{})
		if err != nil || !strings.Contains(strings.Join(r.Notes, "\n"), "mark_done has no") {
			t.Errorf("%s: err %v, notes %q", tg.Name, err, r.Notes)
		}
		if _, err := tg.Export(p, agents(a), Options{Strict: true}); err == nil || !strings.Contains(err.Error(), "strict export refuses to leave it out") {
			t.Errorf("%s strict: err = %v", tg.Name, err)
		}
	}
}

// Two charter tools the OpenAI Agents SDK would call by one name are
// refused.
func TestOpenAIToolNameCollision(t *testing.T) {
	_, err := openAI(everyTable(), agents(agent("ann", model.Tools{}, "a.b", "a_b")), Options{})
	if err == nil || !strings.Contains(err.Error(), `tools a.b and a_b are both "a_b"`) {
		t.Errorf("err = %v", err)
	}
}

func TestStrictable(t *testing.T) {
	obj := func(kv ...any) map[string]any {
		m := map[string]any{"type": "object"}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	str := map[string]any{"type": "string"}
	for _, c := range []struct {
		name   string
		schema map[string]any
		want   bool
	}{
		{"all required", obj("properties", map[string]any{"a": str}, "required", []any{"a"}), true},
		{"optional", obj("properties", map[string]any{"a": str, "b": str}, "required", []any{"a"}), false},
		{"open", obj("properties", map[string]any{"a": str}, "required", []any{"a"}, "additionalProperties", true), false},
		{"oneOf", obj("properties", map[string]any{"a": map[string]any{"oneOf": []any{str}}}, "required", []any{"a"}), false},
		{"nested optional", obj("properties", map[string]any{"a": obj("properties", map[string]any{"x": str}, "required", []any{})}, "required", []any{"a"}), false},
		{"empty", obj("properties", map[string]any{}, "required", []any{}, "additionalProperties", false), true},
	} {
		if got := strictable(c.schema, true); got != c.want {
			t.Errorf("%s: strictable = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestWriteDir(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	r := Result{Files: []File{{Path: "agents/a.md", Data: []byte("one")}, {Path: "settings.json", Data: []byte("{}")}}}
	if _, err := WriteDir(out, r, false); err != nil {
		t.Fatal(err)
	}
	// Its own files, unchanged: replaced.
	r.Files[0].Data = []byte("two")
	if _, err := WriteDir(out, r, false); err != nil {
		t.Fatalf("own files: %v", err)
	}
	// Edited since: refused, and nothing written.
	os.WriteFile(filepath.Join(out, "settings.json"), []byte(`{"mine": true}`), 0o644)
	r.Files[0].Data = []byte("three")
	if _, err := WriteDir(out, r, false); err == nil || !strings.Contains(err.Error(), "settings.json is there and charter export did not write it") {
		t.Fatalf("edited file: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "agents/a.md")); string(b) != "two" {
		t.Errorf("a refused export wrote a.md: %q", b)
	}
	// A link planted where a file goes: refused; with force, replaced by
	// a file and what it points at is untouched.
	os.WriteFile(filepath.Join(dir, "target"), []byte("keep"), 0o644)
	os.Symlink(filepath.Join(dir, "target"), filepath.Join(out, "agents/b.md"))
	r.Files = append(r.Files, File{Path: "agents/b.md", Data: []byte("b")})
	if _, err := WriteDir(out, r, false); err == nil {
		t.Fatal("a symbolic link in the way was followed")
	}
	if _, err := WriteDir(out, r, true); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "target")); string(b) != "keep" {
		t.Errorf("force wrote through the link: %q", b)
	}
	// --out a file.
	if _, err := WriteDir(filepath.Join(dir, "target"), r, true); err == nil || !strings.Contains(err.Error(), "is a file, not a folder") {
		t.Errorf("out a file: %v", err)
	}
	// A path out of the folder.
	if _, err := WriteDir(out, Result{Files: []File{{Path: "../x", Data: nil}}}, true); err == nil {
		t.Error("wrote outside the folder")
	}
}

// Prompts and descriptions read back intact from every target's YAML.
func FuzzYAMLTargets(f *testing.F) {
	for _, s := range []string{"- item", "true", "a: b", "x\ny", "\ttab", "'q'", "\"dq\"", "#c", "---", "\n---\n", "{agent}", "…"} {
		f.Add(s)
	}
	p := everyTable()
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		a := Agent{Agent: agent("ann", model.Tools{}, "read_file"), Description: s, Prompt: s}
		for _, name := range []string{"adk", "opencode", "gemini-cli"} {
			tg, _ := Lookup(name)
			r, err := tg.Export(p, []Agent{a}, Options{})
			if err != nil {
				return
			}
			data := string(r.Files[0].Data)
			var fm map[string]any
			head := data
			if strings.HasPrefix(data, "---\n") {
				head, _, _ = strings.Cut(data[4:], "\n---\n")
			}
			if err := yaml.Unmarshal([]byte(head), &fm); err != nil {
				t.Fatalf("%s: not YAML: %v\n%s", name, err, data)
			}
			if fm["description"] != s && !(s == "" && fm["description"] == nil) {
				t.Errorf("%s: description %q reads back as %#v", name, s, fm["description"])
			}
			if name == "adk" && fm["instruction"] != s {
				t.Errorf("adk: instruction %q reads back as %#v", s, fm["instruction"])
			}
		}
	})
}

// docs/export.md has a section per target.
func TestDocsHaveEveryTarget(t *testing.T) {
	b, err := os.ReadFile("../../../docs/export.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range append(Names(), "a2a", "a2a-v0.3") {
		if !bytes.Contains(b, []byte("\n## "+name+"\n")) {
			t.Errorf("docs/export.md has no section ## %s", name)
		}
	}
}
