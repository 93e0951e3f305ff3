package export_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/testkit/adkconfig"
	"github.com/charter-dev/charter/internal/testkit/adkgo"
	"github.com/charter-dev/charter/internal/testkit/realtool"
)

// adkModels maps every model the starter and the examples declare to a
// Gemini model, the only kind ADK-Go's loader makes.
const adkModels = `package charter

runtimes: adk: models: {
	"claude-opus-4":      "gemini-2.5-pro"
	"claude-sonnet-4":    "gemini-2.5-pro"
	"claude-haiku-4":     "gemini-2.5-flash"
	"example-small-001":  "gemini-2.5-flash"
	"example-medium-001": "gemini-2.5-flash"
	"gpt-4.1":            "gemini-2.5-pro"
	"gpt-4o-mini":        "gemini-2.5-flash"
}
`

// adkOwn is a configuration of the cases the examples lack: ADK's built-in
// tools (web_search and fetch_page are google_search and url_context), an
// agent with no tool, a prompt with characters YAML escapes, a hyphenated
// id, and an agent with no model.
const adkOwn = `package charter

behaviorTypes: WebBehavior: {
	kind:        "tools"
	description: "Searches the web and reads pages."
	tools: {
		web_search: {description: "Search the web.", parameters: {type: "object", properties: q: type: "string"}}
		fetch_page: {description: "Read a page.", parameters: {type: "object", properties: url: type: "string"}}
	}
}
agentTypes: t: {name: "T", system_prompt: "Line one: \"quoted\" # not a comment\n- not a list\n\ttab {agent.name}: {x}", variables: x: description: "A runtime variable."}
agents: "web-reader": {name: "Web: reader", type: "t", behaviors: [{type: "WebBehavior"}], model: {provider: "google", model_id: "gemini-2.5-flash"}}
agents: "no-tools": {name: "Odd: yes", type: "t", description: "- item: true", model: {provider: "google", model_id: "gemini-2.5-pro"}}
agents: modelless: {name: "M", type: "t"}
`

// pyTool is a tools line that names a Python object (module.function):
// adk-python imports it, ADK-Go has no such import.
var pyTool = regexp.MustCompile(`^  - name: ([A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+)$`)

// TestADKGoLoader exports charter's starter, its examples and the cases
// above to ADK with charter itself (export --all --to adk, Gemini models),
// and loads every exported root_agent.yaml with ADK-Go's own config
// loader (internal/testkit/adkgo). It says which parts ADK-Go cannot
// load, by loading the export as written and asserting the loader's
// reason: a tool that names a Python object (adk-python imports it; Go
// has no such import) and an agent with no model (adk-python takes the
// parent's; Go refuses). A copy without exactly those lines, and a Gemini
// model where there was none, loads: only those lines differ. Those
// parts, and before_tool_callbacks (which ADK-Go does not read: a copy
// naming a callback that exists nowhere loads as well), are judged by the
// adk-python schema check (internal/testkit/adkconfig), which every
// exported file passes as written, and the guard's own test
// (testdata/script/export_adk.txtar). What ADK-Go adds to the schema: the
// YAML read into ADK's own structs, the agent class, a model it can make,
// the name, built-in tools resolved by name, and every exported folder
// resolved as a sub agent by config_path from a root that names them.
func TestADKGoLoader(t *testing.T) {
	realtool.Long(t, "builds charter and runs ADK-Go's config loader")
	loader := adkgo.Need(t)
	tmp := t.TempDir()
	charter := filepath.Join(tmp, "charter")
	if out, err := exec.Command("go", "build", "-o", charter, "../../../cmd/charter").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	run := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command(charter, append([]string{"-C", dir}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("charter %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}

	// The sources: the starter as charter init writes it, the examples,
	// and the cases above. dev-team also maps read_file to a Python tool,
	// as a team on adk-python does (docs/export.md).
	src := filepath.Join(tmp, "src")
	starter := filepath.Join(src, "starter")
	if err := os.MkdirAll(starter, 0o755); err != nil {
		t.Fatal(err)
	}
	// init writes into its argument (it does not read -C).
	if out, err := exec.Command(charter, "init", starter).CombinedOutput(); err != nil {
		t.Fatalf("charter init: %v\n%s", err, out)
	}
	copyTree(t, "../../../examples/dev-team", filepath.Join(src, "dev-team"))
	copyTree(t, "../../../examples/assistant", filepath.Join(src, "assistant"))
	write(t, filepath.Join(src, "own", "cue.mod", "module.cue"), "module: \"example.com/own\"\nlanguage: version: \"v0.14.0\"\n")
	write(t, filepath.Join(src, "own", "a.cue"), adkOwn)
	for _, s := range []string{"starter", "dev-team", "assistant"} {
		write(t, filepath.Join(src, s, "adk_models.cue"), adkModels)
	}
	write(t, filepath.Join(src, "dev-team", "adk_tools.cue"), "package charter\n\nruntimes: adk: tools: \"my_tools.read_file\": \"read_file\"\n")

	exported := filepath.Join(tmp, "exported") // as charter wrote it
	loadable := filepath.Join(tmp, "loadable") // without what ADK-Go cannot load
	type want struct {
		name   string // the name: line
		reason string // ADK-Go's refusal of the file as written; "" loads
	}
	wants := map[string]want{} // by SOURCE/AGENT/root_agent.yaml
	var pyTools, modelless int
	for _, s := range []string{"starter", "dev-team", "assistant", "own"} {
		out := filepath.Join(exported, s)
		run(filepath.Join(src, s), "export", "--all", "--to", "adk", "--out", out)
		files, err := filepath.Glob(filepath.Join(out, "*", "root_agent.yaml"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no root_agent.yaml exported (%v)", s, err)
		}
		for _, f := range files {
			rel := s + "/" + filepath.Base(filepath.Dir(f)) + "/root_agent.yaml"
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			// The judge of every part, as written: adk-python's schema
			// and the checks in its code.
			if err := adkconfig.Check(b); err != nil {
				t.Errorf("%s: the adk-python schema check refuses the export: %v\n%s", rel, err, b)
			}
			lines := strings.Split(string(b), "\n")
			if slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "sub_agents:") }) {
				t.Errorf("%s: the export writes sub_agents; this test does not load them", rel)
			}
			if !slices.Contains(lines, "before_tool_callbacks:") {
				t.Errorf("%s: no before_tool_callbacks (the guard)", rel)
			}
			var w want
			var keep []string
			hasModel := false
			block := "" // the top-level key the line is under
			for _, l := range lines {
				if k, _, ok := strings.Cut(l, ":"); ok && !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "#") {
					block = k
				}
				if m := pyTool.FindStringSubmatch(l); m != nil && block == "tools" {
					if w.reason == "" {
						w.reason = "failed to resolve tool reference " + m[1] + ": tool '" + m[1] + "' not found"
					}
					pyTools++
					continue
				}
				if n, ok := strings.CutPrefix(l, "name: "); ok {
					w.name = n
				}
				hasModel = hasModel || strings.HasPrefix(l, "model: ")
				keep = append(keep, l)
			}
			if !hasModel {
				// Checked first by ADK-Go, so its reason.
				w.reason = "'model' is required for LlmAgent"
				modelless++
				keep = slices.Insert(keep, slices.IndexFunc(keep, func(l string) bool { return strings.HasPrefix(l, "instruction: ") }), "model: gemini-2.5-flash")
			}
			if rel == "own/web_reader/root_agent.yaml" && !(slices.Contains(lines, "  - name: google_search") && slices.Contains(lines, "  - name: url_context")) {
				t.Errorf("%s: want ADK's built-in google_search and url_context (web_search, fetch_page)\n%s", rel, b)
			}
			wants[rel] = w
			// The copy differs from the export in exactly those lines.
			removed, added := lineDiff(lines, keep)
			for _, l := range removed {
				if !pyTool.MatchString(l) {
					t.Errorf("%s: the loadable copy lacks %q, which is not a Python tool", rel, l)
				}
			}
			if !cmp.Equal(added, modelLine(hasModel)) {
				t.Errorf("%s: the loadable copy adds %q", rel, added)
			}
			write(t, filepath.Join(loadable, rel), strings.Join(keep, "\n"))
		}
	}
	if pyTools == 0 || modelless == 0 {
		t.Fatalf("the sources gave %d Python tools and %d agents without a model; the test needs both", pyTools, modelless)
	}

	// The export as written: what ADK-Go loads, and why not the rest.
	got, out, err := adkgo.Load(loader, exported)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	loadedAsWritten := 0
	for rel, w := range wants {
		r, ok := got[rel]
		switch {
		case !ok:
			t.Errorf("%s: ADK-Go's loader did not see it", rel)
		case w.reason == "" && (!r.OK() || r.Name != w.name):
			t.Errorf("%s: ADK-Go's loader gave %+v, want agent %s loaded", rel, r, w.name)
		case w.reason == "":
			loadedAsWritten++
		case !strings.Contains(r.Err, w.reason):
			t.Errorf("%s: ADK-Go's loader gave %+v, want its refusal %q (the part it cannot load)", rel, r, w.reason)
		}
	}
	if len(got) != len(wants) {
		t.Errorf("ADK-Go's loader judged %d files, want %d:\n%s", len(got), len(wants), out)
	}

	// The copy without those lines: every agent loads, under its name.
	// With a root above the folders --all writes that names each by
	// config_path (ADK-Go resolves one only inside the root's folder):
	// each resolves as its sub agent.
	var roots []string
	for _, s := range []string{"starter", "dev-team", "assistant", "own"} {
		dirs, _ := filepath.Glob(filepath.Join(loadable, s, "*", "root_agent.yaml"))
		var b strings.Builder
		b.WriteString("name: team_root\nmodel: gemini-2.5-flash\ninstruction: Hand each task to the agent it belongs to.\nsub_agents:\n")
		for _, d := range dirs {
			b.WriteString("  - config_path: " + filepath.Base(filepath.Dir(d)) + "/root_agent.yaml\n")
		}
		root := s + "/root_agent.yaml"
		write(t, filepath.Join(loadable, root), b.String())
		if err := adkconfig.Check([]byte(b.String())); err != nil {
			t.Errorf("%s: the schema check refuses the test's root: %v", root, err)
		}
		roots = append(roots, root)
	}
	got, out, err = adkgo.Load(loader, loadable)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for rel, w := range wants {
		if r := got[rel]; !r.OK() || r.Name != w.name {
			t.Errorf("%s without what ADK-Go cannot load: %+v, want agent %s loaded", rel, r, w.name)
		}
	}
	for _, root := range roots {
		if r := got[root]; !r.OK() || r.Name != "team_root" {
			t.Errorf("%s (every exported agent as a sub agent): %+v, want it loaded", root, r)
		}
	}
	if t.Failed() {
		t.Logf("ADK-Go's loader said:\n%s", out)
	}

	// Controls: what ADK-Go judges and what it does not, on one loadable
	// agent. A model it cannot make and a sub agent that is not there are
	// refused; a callback that exists nowhere loads, so ADK-Go is not the
	// judge of before_tool_callbacks.
	base, err := os.ReadFile(filepath.Join(loadable, "dev-team", "ravi", "root_agent.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	ctl := filepath.Join(tmp, "controls")
	swap := func(name, old, new string) {
		t.Helper()
		if !strings.Contains(string(base), old) {
			t.Fatalf("control %s: %q is not in ravi's export", name, old)
		}
		write(t, filepath.Join(ctl, name, "root_agent.yaml"), strings.Replace(string(base), old, new, 1))
	}
	swap("model", "model: gemini-2.5-pro", "model: claude-sonnet-4")
	swap("callback", "ravi.charter_guard.before_tool", "no_such_module.before_tool")
	swap("sub_agent", "before_tool_callbacks:", "sub_agents:\n  - config_path: nobody/root_agent.yaml\nbefore_tool_callbacks:")
	swap("outside", "before_tool_callbacks:", "sub_agents:\n  - config_path: ../model/root_agent.yaml\nbefore_tool_callbacks:")
	got, out, err = adkgo.Load(loader, ctl)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for name, reason := range map[string]string{
		"model":     "model claude-sonnet-4 is not supported",
		"callback":  "",
		"sub_agent": "failed to resolve agent reference nobody/root_agent.yaml",
		"outside":   "path traversal detected",
	} {
		r := got[name+"/root_agent.yaml"]
		if reason == "" && !r.OK() || reason != "" && !strings.Contains(r.Err, reason) {
			t.Errorf("control %s: ADK-Go's loader gave %+v, want %q (\"\" loads)", name, r, reason)
		}
	}
	t.Logf("%d agents exported; ADK-Go loads %d as written, refuses the rest for %d Python tools and %d agents without a model; all %d load without those lines, and as sub agents of %d roots",
		len(wants), loadedAsWritten, pyTools, modelless, len(wants), len(roots))
}

// modelLine is what the loadable copy adds: a model where there was none.
func modelLine(hasModel bool) []string {
	if hasModel {
		return nil
	}
	return []string{"model: gemini-2.5-flash"}
}

// lineDiff returns the lines of a not in b and of b not in a, by a longest
// common subsequence (the files are small).
func lineDiff(a, b []string) (removed, added []string) {
	n, m := len(a), len(b)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[i] == b[j]:
			i, j = i+1, j+1
		case lcs[i+1][j] >= lcs[i][j+1]:
			removed = append(removed, a[i])
			i++
		default:
			added = append(added, b[j])
			j++
		}
	}
	return append(removed, a[i:]...), append(added, b[j:]...)
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
