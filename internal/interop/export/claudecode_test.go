package export

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/config/model"
)

var table = map[string]map[string]string{Runtime: {
	"Read": "read_file", "Glob": "list_dir", "Write": "write_file", "Edit": "write_file", "Bash": "run_bash",
}}

var prog = &compiler.Program{Config: &model.Config{Runtimes: map[string]*model.Runtime{Runtime: {Tools: table[Runtime]}}}}

// sub is ClaudeCodeSubagent of a with the given description and prompt.
func sub(a *compiler.Agent, desc, prompt string) ([]byte, []string, error) {
	return ClaudeCodeSubagent(prog, Agent{Agent: a, Description: desc, Prompt: prompt}, Options{})
}

func agent(id string, tools model.Tools, provided ...string) *compiler.Agent {
	a := &compiler.Agent{ID: id, Decl: &model.Agent{Name: id, Tools: tools}, RuntimeTools: table}
	for _, p := range provided {
		t := compiler.ProvidedTool{Name: p, Behavior: "B"}
		a.Tools = append(a.Tools, t)
		if contains(tools.Denied, p) {
			a.Excluded = append(a.Excluded, compiler.Exclusion{Name: p, By: "tools.denied"})
		} else {
			a.Effective = append(a.Effective, t)
		}
	}
	// As the compiler does: what tools.denied names that no behavior
	// provides.
	for _, d := range tools.Denied {
		if !contains(provided, d) {
			a.DeniedTools = append(a.DeniedTools, compiler.DeniedTool{Name: d})
		}
	}
	return a
}

func contains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// parse reads the front matter back with a YAML parser.
func parse(t *testing.T, file []byte) (map[string]any, string) {
	t.Helper()
	s := string(file)
	if !strings.HasPrefix(s, "---\n") {
		t.Fatalf("no front matter:\n%s", s)
	}
	head, body, ok := strings.Cut(s[4:], "\n---\n")
	if !ok {
		t.Fatalf("front matter not closed:\n%s", s)
	}
	var fm map[string]any
	if err := yaml.Unmarshal([]byte(head), &fm); err != nil {
		t.Fatalf("front matter is not YAML: %v\n%s", err, head)
	}
	return fm, strings.TrimPrefix(body, "\n")
}

func TestOddValuesParseBack(t *testing.T) {
	for _, s := range []string{"- item", "true", "null", "123", "~", "1e3", "a: b", "two\nlines", "bell\x07", "#comment", "'quoted'", `"dq"`, "  lead", "trail ", "", "yes", "0x10", "[a, b]", "{a: b}", "&anchor", "*alias", "!tag", "|", ">", "%x", "@x", "`x`", "…ünï"} {
		for _, id := range []string{"ann", "123", "true", "null", "1e3", "no"} {
			file, _, err := sub(agent(id, model.Tools{}), s, "Body.\n")
			if err != nil {
				t.Fatal(err)
			}
			fm, body := parse(t, file)
			if fm["description"] != s {
				t.Errorf("description %q reads back as %#v\n%s", s, fm["description"], file)
			}
			if fm["name"] != id {
				t.Errorf("name %q reads back as %#v", id, fm["name"])
			}
			if body != "Body.\n" {
				t.Errorf("body reads back as %q", body)
			}
		}
	}
}

func TestTools(t *testing.T) {
	for _, c := range []struct {
		name           string
		a              *compiler.Agent
		tools, denied  any
		notes          int
		hasToolsLine   bool
		hasDeniedField bool
	}{
		{name: "denied", a: agent("ravi", model.Tools{Denied: []string{"write_file"}}, "read_file", "list_dir", "write_file"),
			tools: "Glob, Read", denied: "Edit, Write", hasToolsLine: true, hasDeniedField: true},
		{name: "nothing maps: an empty list, never no line", a: agent("priya", model.Tools{}, "decompose_task"),
			tools: []any{}, notes: 1, hasToolsLine: true},
		{name: "no tools: an empty list, never Claude Code's every tool", a: agent("ann", model.Tools{}),
			tools: []any{}, hasToolsLine: true},
		{name: "restricted to nothing", a: agent("zed", model.Tools{AccessLevel: "restricted"}),
			tools: []any{}, hasToolsLine: true},
		{name: "some unmapped", a: agent("sam", model.Tools{}, "run_bash", "mark_complete"),
			tools: "Bash", notes: 1, hasToolsLine: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			file, notes, err := sub(c.a, "d", "")
			if err != nil {
				t.Fatal(err)
			}
			fm, _ := parse(t, file)
			got, ok := fm["tools"]
			if ok != c.hasToolsLine {
				t.Fatalf("tools line present = %v, want %v\n%s", ok, c.hasToolsLine, file)
			}
			if diff := cmp.Diff(c.tools, got); ok && diff != "" {
				t.Errorf("tools (-want +got):\n%s", diff)
			}
			if d, ok := fm["disallowedTools"]; ok != c.hasDeniedField || ok && d != c.denied {
				t.Errorf("disallowedTools = %#v, want %#v", d, c.denied)
			}
			if len(notes) != c.notes {
				t.Errorf("notes = %q, want %d", notes, c.notes)
			}
		})
	}
}

func FuzzFrontMatter(f *testing.F) {
	for _, s := range []string{"- item", "true", "null", "123", "~", "1e3", "a: b", "x\ny", "\x01", "---", "\n---\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, desc string) {
		if !utf8.ValidString(desc) {
			return // descriptions come from CUE strings, which are UTF-8
		}
		file, _, err := sub(agent("ann", model.Tools{}, "read_file"), desc, "")
		if err != nil {
			return // refused, not mangled
		}
		fm, _ := parse(t, file)
		if fm["description"] != desc {
			t.Errorf("description %q reads back as %#v\n%s", desc, fm["description"], file)
		}
		if !bytes.HasPrefix(file, []byte("---\nname: ann\n")) {
			t.Errorf("front matter starts\n%s", file)
		}
	})
}

// A denied name that is Claude Code's own (tools.denied: ["Write"]) is not
// given: eval and the hook block it, so the subagent must not have it.
func TestDeniedRuntimeName(t *testing.T) {
	file, _, err := sub(agent("ann", model.Tools{Denied: []string{"Write"}}, "read_file", "write_file"), "d", "Body.\n")
	if err != nil {
		t.Fatal(err)
	}
	fm, _ := parse(t, file)
	if diff := cmp.Diff(map[string]any{"tools": "Edit, Read", "disallowedTools": "Write"}, map[string]any{"tools": fm["tools"], "disallowedTools": fm["disallowedTools"]}); diff != "" {
		t.Errorf("front matter (-want +got):\n%s\n%s", diff, file)
	}
}

// The run limits: max_turns is the subagent's maxTurns; a time limit has
// no field, and the notes say so. A tool of a denied group that no
// behavior provides is disallowed by its Claude Code names.
func TestRunLimitsAndDeniedGroups(t *testing.T) {
	a := agent("ann", model.Tools{Denied: []string{"file_system"}}, "read_file")
	a.Decl.MaxTurns, a.Decl.Timeout = 8, 90
	a.DeniedTools = []compiler.DeniedTool{{Name: "write_file", Group: "file_system"}}
	file, notes, err := sub(a, "d", "Body.\n")
	if err != nil {
		t.Fatal(err)
	}
	fm, _ := parse(t, file)
	if fm["maxTurns"] != 8 || fm["disallowedTools"] != "Edit, Write" {
		t.Errorf("front matter:\n%s", file)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "timeout (90s) is not carried") {
		t.Errorf("notes: %q", notes)
	}
}
