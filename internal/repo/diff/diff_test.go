package diff

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	ghtml "github.com/yuin/goldmark/renderer/html"
)

func doc(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestAgents(t *testing.T) {
	old := doc(t, `{
		"name": "Sarah", "content_hash": "a",
		"personality": {"risk_tolerance": "low"},
		"skills": {"primary": [{"id": "python", "proficiency": 0.9}, {"id": "go", "proficiency": 0.5}]},
		"tools": {"access_level": "standard", "allowed": ["git", "file_system"], "denied": ["deployment"]},
		"authority": {"budget_limit": 5, "can_delegate_to": ["junior"]},
		"autonomy_level": "supervised",
		"profile": {"name": "coding", "rules": [
			{"id": "confirm_destructive", "action": "block", "enabled": true},
			{"id": "test_after_changes", "action": "remind", "enabled": true}]}
	}`)
	new := doc(t, `{
		"name": "Sarah", "content_hash": "b",
		"personality": {"risk_tolerance": "medium"},
		"skills": {"primary": [{"id": "go", "proficiency": 0.5}, {"id": "python", "proficiency": 0.95}]},
		"tools": {"access_level": "elevated", "allowed": ["git", "file_system", "terminal"], "denied": []},
		"authority": {"budget_limit": 50, "can_delegate_to": ["junior"]},
		"autonomy_level": "semi",
		"profile": {"name": "coding", "rules": [
			{"id": "confirm_destructive", "action": "warn", "enabled": true},
			{"id": "test_after_changes", "action": "remind", "enabled": false}]}
	}`)
	type row struct{ Path, Change, Effect string }
	var got []row
	for _, c := range Agents(map[string]map[string]any{"sarah": old}, map[string]map[string]any{"sarah": new}) {
		got = append(got, row{c.Path, c.Change, c.Effect})
	}
	want := []row{
		{"agents.sarah.authority.budget_limit", Modified, Widened},
		{"agents.sarah.autonomy_level", Modified, Widened},
		{"agents.sarah.profile.rules[confirm_destructive].action", Modified, Widened},
		{"agents.sarah.profile.rules[test_after_changes].enabled", Modified, Widened},
		{"agents.sarah.tools.access_level", Modified, Widened},
		{"agents.sarah.tools.allowed[terminal]", Added, Widened},
		{"agents.sarah.tools.denied[deployment]", Removed, Widened},
		{"agents.sarah.personality.risk_tolerance", Modified, Neutral},
		{"agents.sarah.skills.primary[python].proficiency", Modified, Neutral},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestNarrowed(t *testing.T) {
	old := doc(t, `{"tools": {"allowed": ["a"]}, "profile": {"rules": [{"id": "r", "action": "remind"}]}, "provided_tools": [{"name": "run_bash"}]}`)
	new := doc(t, `{"tools": {"allowed": [], "denied": ["b"]}, "profile": {"rules": [{"id": "r", "action": "block"}, {"id": "s", "action": "warn"}]}}`)
	got := map[string]string{}
	for _, c := range Agents(map[string]map[string]any{"x": old}, map[string]map[string]any{"x": new}) {
		got[c.Path] = c.Effect
	}
	want := map[string]string{
		"agents.x.tools.allowed[a]":        Narrowed,
		"agents.x.tools.denied":            Narrowed,
		"agents.x.profile.rules[r].action": Narrowed,
		"agents.x.profile.rules[s]":        Narrowed,
		"agents.x.provided_tools":          Narrowed,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestAddedAndRemovedAgents: an added agent is a widened change of its
// own, then each of its fields, classed as a changed agent's (its tools,
// access level and budget widen); a removed agent the other way.
func TestAddedAndRemovedAgents(t *testing.T) {
	cs := Agents(map[string]map[string]any{"old": doc(t, `{"name": "O", "effective_tools": ["x"]}`)},
		map[string]map[string]any{"new": doc(t, `{"name": "N", "effective_tools": ["read_file"], "tools": {"access_level": "elevated"}, "authority": {"budget_limit": 5}}`)})
	type row struct{ Path, Change, Effect, Reason string }
	var got []row
	for _, c := range cs {
		got = append(got, row{c.Path, c.Change, c.Effect, c.Reason})
	}
	want := []row{
		{"agents.new", Added, Widened, "agent added"},
		{"agents.new.authority.budget_limit", Added, Widened, "budget limit raised"},
		{"agents.new.effective_tools[read_file]", Added, Widened, "callable tool added"},
		{"agents.new.tools.access_level", Added, Widened, "access level raised"},
		{"agents.new.name", Added, Neutral, ""},
		{"agents.old", Removed, Narrowed, "agent removed"},
		{"agents.old.effective_tools[x]", Removed, Narrowed, "callable tool removed"},
		{"agents.old.name", Removed, Neutral, ""},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestFormats(t *testing.T) {
	r := &Report{From: "v1", To: "v2", Changes: Agents(
		map[string]map[string]any{"x": doc(t, `{"tools": {"allowed": []}, "role": "a|b"}`)},
		map[string]map[string]any{"x": doc(t, `{"tools": {"allowed": ["sh"]}, "role": "c"}`)})}
	var text, md bytes.Buffer
	r.WriteText(&text)
	r.WriteMarkdown(&md)
	for _, want := range []string{"v1..v2: 2 changes (1 widened, 0 narrowed, 1 neutral)", "agent x:", `! widened  agents.x.tools.allowed[sh] added "sh" (allowed tool added)`} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	if !strings.Contains(md.String(), "| **widened** | `agents.x.tools.allowed[sh]` |") || !strings.Contains(md.String(), `"a\|b"`) {
		t.Errorf("markdown:\n%s", md.String())
	}
}

func TestEffectiveTools(t *testing.T) {
	old := doc(t, `{"effective_tools": ["read_file"], "tools_declared_at": {"tools.denied": "a.cue:3:1"}, "tools": {"api_key": "hunter2hunter2"}}`)
	new := doc(t, `{"effective_tools": ["read_file", "write_file"], "tools_declared_at": {"tools.denied": "a.cue:9:1"}, "tools": {"api_key": "hunter3hunter3"}}`)
	cs := Agents(map[string]map[string]any{"x": old}, map[string]map[string]any{"x": new})
	got := map[string]string{}
	for _, c := range cs {
		got[c.Path] = c.Effect + " " + string(c.Old) + " " + string(c.New)
	}
	if g := got["agents.x.effective_tools[write_file]"]; g != Widened+`  "write_file"` {
		t.Errorf("a tool the agent may now call: %q, want widened", g)
	}
	if _, ok := got["agents.x.tools_declared_at.tools.denied"]; ok {
		t.Errorf("a moved declaration is a change: %v", got)
	}
	if g := got["agents.x.tools.api_key"]; strings.Contains(g, "hunter") || !strings.Contains(g, "…[14 chars") {
		t.Errorf("a credential named so is printed: %q", g)
	}
}

func TestRuntimeNames(t *testing.T) {
	cs := Values([]string{"runtimes"}, map[string]any{"claude-code": map[string]any{"tools": map[string]any{"Read": "read_file"}}},
		map[string]any{"claude-code": map[string]any{"tools": map[string]any{"Read": "read_file", "mcp__x__y": "y"}}})
	if len(cs) != 1 {
		t.Fatalf("changes = %+v", cs)
	}
	ClassifyDeclaration(&cs[0])
	if cs[0].Effect != Widened {
		t.Errorf("a runtime name mapped: %s, want widened", cs[0].Effect)
	}
}

// A value cut to one line is cut after redaction: a credential cut first
// loses its shape, and its first characters would pass the redacting
// writer. The cut keeps whole characters.
func TestBriefRedactsBeforeCut(t *testing.T) {
	for _, raw := range []string{
		`[{"description":"Uses it.","tags":["sk-proj-QQoai0123456789abcdefghij"]}, {"description":"Other."}]`,
		`["` + strings.Repeat("x", 60) + `", "ghp_QQgh0123456789abcdefghijklmnopqrstuv"]`,
	} {
		got := Brief(json.RawMessage(raw))
		if strings.Contains(got, "QQ") {
			t.Errorf("Brief(%s) = %s: a part of the credential shows", raw, got)
		}
		if !utf8.ValidString(got) {
			t.Errorf("Brief(%s) = %q: not UTF-8", raw, got)
		}
	}
	if got := Brief(json.RawMessage(`"a` + strings.Repeat("é", 60) + `"`)); !utf8.ValidString(got) || !strings.HasSuffix(got, "...") {
		t.Errorf("Brief of 60 é = %q: want valid UTF-8, cut with ...", got)
	}
}

// TestMarkdownShowsValuesAsText renders a diff's Markdown as GitHub does,
// raw HTML allowed: a value holding HTML or Markdown shows as text.
func TestMarkdownShowsValuesAsText(t *testing.T) {
	r := &Report{From: "v1", To: "v`2", Changes: Agents(
		map[string]map[string]any{"x": doc(t, `{"role": "a"}`)},
		map[string]map[string]any{"x": doc(t, `{"role": "<img src=x onerror=alert(1)> [l](http://e) *b*", "a|b`+"`"+`c": "x"}`)})}
	var md, out bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	gfm := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(ghtml.WithUnsafe()))
	if err := gfm.Convert(md.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	page := out.String()
	for _, bad := range []string{"<img", "<em>", `">l</a>`, "<code>2"} {
		if strings.Contains(page, bad) {
			t.Errorf("the comment renders %s:\n%s\n%s", bad, md.String(), page)
		}
	}
	for _, want := range []string{"img src=x onerror=alert(1)", "[l](http://e) *b*", "<code>agents.x.&quot;a|b`c&quot;</code>", "<code>v`2</code>"} {
		if !strings.Contains(page, want) {
			t.Errorf("the comment lacks %s:\n%s\n%s", want, md.String(), page)
		}
	}
}
