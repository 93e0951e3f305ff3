package docsgen_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	ghtml "github.com/yuin/goldmark/renderer/html"

	"github.com/charter-dev/charter/internal/testkit/testrepo"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/output/docsgen"
	"github.com/charter-dev/charter/internal/repo/source"
)

func program(t *testing.T, dir string) *compiler.Program {
	t.Helper()
	fsys, err := source.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return testrepo.Compile(t, fsys)
}

// TestGenerate checks that the reference is deterministic and names every
// declaration, with what a reader needs to see (the fixture exercises
// every kind of declaration).
func TestGenerate(t *testing.T) {
	const dir = "../../editor/schema/testdata/full"
	a, b := docsgen.Generate(program(t, dir)), docsgen.Generate(program(t, dir))
	for p := range a {
		if !bytes.Equal(a[p], b[p]) {
			t.Errorf("%s differs between runs", p)
		}
		if !bytes.HasPrefix(a[p], []byte(docsgen.Marker+"\n")) {
			t.Errorf("%s lacks the marker", p)
		}
	}
	want := map[string][]string{
		"categories.md":  {"## escalation", "### escalation.max_attempts", "A number from 1 to 5.", "One of 5, 10, 30.", "| `never` |  | (no line) | Never escalate. | use late |"},
		"agent-types.md": {"## helper", "- presets: `calm`", "| `locale` | no | The user's locale. | en-GB |", "## preset calm"},
		"profiles.md":    {"## support", "- extends: assistant → dev", "| `confirm_bulk_email` |", "| no |", "changed by `support`", "Classifier: frequency `first_turn`"},
		"behaviors.md":   {"## TicketBehavior", "| `queue` | string | `\"support\"` | Ticket queue. |", "### tool open_ticket", "| `title` | string | yes |  |", "Destructive: it deletes or overwrites."},
		"agents/hal.md":  {"| `escalation.wait_minutes` | `30` |  | the agent's own override (agents/hal.cue:", "| `escalation.threshold` | `late` | Try twice before handing over | preset calm of the agent type (decls.cue:", "- tools denied: `delete_ticket`", "| `delete_ticket` | TicketBehavior | yes | no: tools.denied names delete_ticket | Delete a ticket. |", "| pii | 1 day |"},
	}
	for p, subs := range want {
		for _, s := range subs {
			if !strings.Contains(string(a[p]), s) {
				t.Errorf("%s lacks %q", p, s)
			}
		}
	}
}

// TestGenerateEscapesText renders every page as GitHub does, raw HTML
// allowed: no free text of the configuration becomes an element (a
// description holding <img onerror> would run), a link or emphasis, and no
// credential in a table cell is printed (a PEM key's lines there are
// joined by <br>).
func TestGenerateEscapesText(t *testing.T) {
	const evil = `<img src=x onerror=alert(1)> [link](http://evil.example) *bold*`
	const pem = "-----BEGIN RSA PRIVATE KEY-----\nQQpemMIIEowIBAAKCAQEAx1y2z3w4v5u6t7s8r9q0p\nQ1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x\n-----END RSA PRIVATE KEY-----"
	fsys := testrepo.FS(map[string]string{"a.cue": `package charter

categories: tone: {
	title: "TONE` + evil + `", description: "` + evil + `"
	settings: style: {description: "` + evil + `", default: "warm", line: "- Tone: {text}"
		options: warm: {text: "Be warm ` + evil + `", description: "` + evil + `"}}
}
presets: calm: {description: "` + evil + `", behavior: tone: style: "warm"}
behaviorTypes: NoteBehavior: {kind: "tools", description: "` + evil + `"
	params: q: {type: "string", default: "", description: "` + evil + `"}
	tools: note: {description: "` + evil + `", parameters: {type: "object", properties: x: {type: "string", description: "` + evil + `"}}}
}
profiles: p: {extends: "dev", description: "` + evil + `", rules: r: {rule: "` + evil + `", trigger: "*", action: "warn", message: "` + evil + `"}}
agentTypes: helper: {name: "Helper ` + evil + `", description: "` + evil + `", system_prompt: "You are {agent.name}.",
	variables: v: {description: """
		` + strings.ReplaceAll(pem, "\n", "\n\t\t") + `
		""", example: "` + evil + `"}}
agents: ann: {
	name: "Ann ` + evil + `", type: "helper", role: "` + evil + `", department: "` + evil + `", description: "` + evil + `"
	profile: "p"
	behaviors: [{type: "NoteBehavior"}]
	personality: {description: "` + evil + `", traits: ["` + evil + `"]}
	skills: primary: [{id: "s", name: "` + evil + `", description: "` + evil + `", tags: ["` + evil + `"], examples: ["x"]}]
	model: {provider: "` + evil + `", model_id: "m"}
}
`})
	pages := docsgen.Generate(testrepo.Compile(t, fsys))
	for name, md := range pages {
		var out bytes.Buffer
		if err := gfm.Convert(md, &out); err != nil {
			t.Fatal(err)
		}
		page := out.String()
		for _, bad := range []string{"<img", `">link</a>`, "<em>bold", "QQpem"} {
			if strings.Contains(page, bad) {
				i := strings.Index(page, bad)
				t.Errorf("%s renders %q:\n%s", name, bad, page[max(0, i-200):min(len(page), i+200)])
			}
		}
		if !strings.Contains(page, "&lt;img src=x onerror=alert(1)&gt;") && name != "index.md" {
			t.Errorf("%s does not show the text", name)
		}
	}
}

// gfm renders Markdown as GitHub does, with raw HTML allowed.
var gfm = goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(ghtml.WithUnsafe()))

// TestGenerateEscapesCodeSpans checks the values the reference shows as
// inline code (a model id, a rule's condition and CEL expression): a
// blank line in one ended the code span and its paragraph, so the HTML
// after it rendered as HTML; a control character went raw into the page;
// and a credential in one was written as it is. The same for the text
// shown in fenced blocks (an agent type's template, a behavior's
// instructions).
func TestGenerateEscapesCodeSpans(t *testing.T) {
	const evil = `x\n\n<img src=x onerror=alert(1)>\u001b[2J`
	const token = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789"
	fsys := testrepo.FS(map[string]string{"a.cue": `package charter

profiles: p: {extends: "dev", rules: {
	c: {rule: "c", trigger: "*", action: "warn", message: "m", condition: {type: "contains", field: "command", substring: "` + evil + `"}}
	e: {rule: "e", trigger: "*", action: "warn", message: "m", condition: {type: "expr", expr: "call.tool == \"a\" // \u001b[2J\n\n// <img src=x onerror=alert(1)>"}}
	s: {rule: "s", trigger: "*", action: "warn", message: "m", condition: {type: "contains", field: "command", substring: "` + token + `"}}
}}
agentTypes: helper: {name: "Helper", system_prompt: "You are {agent.name}. \u001b[2J ` + token + `"}
behaviorTypes: NoteBehavior: {kind: "utility", instructions: "Note \u001b[2J ` + token + `"}
agents: ann: {
	name: "Ann", type: "helper", profile: "p", behaviors: [{type: "NoteBehavior"}]
	model: {provider: "anthropic", model_id: "` + evil + `", fallback_model: "` + token + `"}
}
`})
	pages := docsgen.Generate(testrepo.Compile(t, fsys))
	for name, md := range pages {
		if i := bytes.IndexByte(md, 0x1b); i >= 0 {
			t.Errorf("%s holds a raw ESC: %q", name, md[max(0, i-80):min(len(md), i+80)])
		}
		if i := bytes.Index(md, []byte(token)); i >= 0 {
			t.Errorf("%s holds the token: %q", name, md[max(0, i-80):min(len(md), i+80)])
		}
		var out bytes.Buffer
		if err := gfm.Convert(md, &out); err != nil {
			t.Fatal(err)
		}
		if page := out.String(); strings.Contains(page, "<img") {
			i := strings.Index(page, "<img")
			t.Errorf("%s renders <img:\n%s", name, page[max(0, i-200):min(len(page), i+200)])
		}
	}
}

// TestTableCellsShowPipes checks that a | in free text and in code shown
// in a table renders as a |: text escaped it already, and the cell
// escaped it again, so the page showed "left \| right".
func TestTableCellsShowPipes(t *testing.T) {
	fsys := testrepo.FS(map[string]string{"a.cue": `package charter

agents: ann: {
	name: "Ann", type: "personal_assistant"
	skills: primary: [{id: "s", name: "S", description: "left | right \\ back", tags: ["t"], examples: ["x"]}]
}
profiles: p: {extends: "dev", rules: c: {rule: "c", trigger: "*", action: "warn", message: "m", condition: {type: "contains", field: "command", substring: "a|b"}}}
`})
	pages := docsgen.Generate(testrepo.Compile(t, fsys))
	for page, want := range map[string]string{
		"agents/ann.md": "<td>left | right \\ back</td>",
		"profiles.md":   "<code>a|b</code>",
	} {
		var out bytes.Buffer
		if err := gfm.Convert(pages[page], &out); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), want) {
			i := strings.Index(out.String(), want[4:8])
			t.Errorf("%s does not show %s:\n%s", page, want, out.String()[max(0, i-100):min(out.Len(), i+100)])
		}
	}
}
