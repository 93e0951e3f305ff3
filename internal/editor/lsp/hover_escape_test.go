package lsp

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	ghtml "github.com/yuin/goldmark/renderer/html"
)

// TestHoverEscapesConfigText: hover and completion text is Markdown the
// editor renders, and the configuration's text in it is shown as text
// (mdtext.Escape), as in charter docs: a description holding an image
// (which an editor would fetch), a link, HTML, a heading or a code fence
// renders as none of them, and control and invisible characters are
// visible.
func TestHoverEscapesConfigText(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"cue.mod/module.cue": "module: \"example.com/x\"\nlanguage: version: \"v0.17.0\"\n",
		"a.cue": `package charter

categories: tone: {title: "TONE <b>bold</b>", description: "![px](https://evil.example/track.png)", settings: style: {
	default: "warm", line: "- Tone: {text}", description: "# Heading\n[click](https://evil.example)"
	options: warm: {text: "Be <img src=x onerror=alert(1)> warm", description: "` + "```" + `\ncode\n` + "```" + `"}
	options: cold: text: "Be *cold* \u202e"}}
agentTypes: t: {name: "T", system_prompt: "You are {agent.name}.", description: "<script>alert(1)</script>"}
agents: ann: {name: "Ann <img src=y>", role: "[role](javascript:alert(1))", type: "t", behavior: tone: style: "warm"}
agents: bob: {name: "Bob", type: "t", authority: reports_to: "ann"}
`,
	}
	for rel, src := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := start(t, root)
	c.wait()
	src := c.read("a.cue")
	c.open("a.cue", src)
	c.wait()
	md := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(ghtml.WithUnsafe()))
	for _, h := range []struct {
		marker string
		delta  int
		want   string
	}{
		{`style: "warm"}`, 9, "warm"},
		{`style: "warm"}`, 2, "style"},
		{`tone: style`, 2, "tone"},
		{`type: "t", behavior`, 7, "agent type"},
		{`reports_to: "ann"`, 13, "agent"},
	} {
		got := hoverText(t, c, "a.cue", src, h.marker, h.delta)
		if !strings.Contains(got, h.want) {
			t.Fatalf("hover at %s+%d: got %q, want it to contain %q", h.marker, h.delta, got, h.want)
		}
		var b bytes.Buffer
		if err := md.Convert([]byte(got), &b); err != nil {
			t.Fatal(err)
		}
		html := b.String()
		// (A bare URL stays a link to itself, GFM's autolink: it hides
		// nothing.)
		for _, bad := range []string{"<img", ">click</a>", ">role</a>", `href="javascript`, "<script", "<b>", "<h1", "<pre", "<em>", "\u202e"} {
			if strings.Contains(html, bad) {
				t.Errorf("hover at %s+%d renders %s:\n%s\nas\n%s", h.marker, h.delta, bad, got, html)
			}
		}
	}
	// Completion: an option's text (plain) shows its invisible characters;
	// its description (Markdown) is escaped as a hover's.
	typing := strings.Replace(src, `style: "warm"}`, `style: "co`, 1)
	c.change("a.cue", typing)
	c.wait()
	var list protocol.CompletionList
	c.call("textDocument/completion", protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("a.cue")}, Position: pos(t, typing, `style: "co`, len(`style: "co`))}}, &list)
	seen := 0
	for _, it := range list.Items {
		if it.Detail != nil && strings.Contains(*it.Detail, "\u202e") {
			t.Errorf("completion %s: detail %q holds a bidi override", it.Label, *it.Detail)
		}
		if it.Label == "cold" || it.Label == "warm" {
			seen++
		}
		if it.Label == "warm" {
			b, _ := json.Marshal(it.Documentation)
			var m protocol.MarkupContent
			_ = json.Unmarshal(b, &m)
			var h bytes.Buffer
			if err := md.Convert([]byte(m.Value), &h); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(h.String(), "<pre") {
				t.Errorf("completion warm: documentation %q renders a code block:\n%s", m.Value, h.String())
			}
		}
	}
	if seen != 2 {
		t.Errorf("completion: want the options cold and warm, got %d items", len(list.Items))
	}
}

// TestDiagnosticsEscapeValues: a diagnostic quoting a value of the
// configuration shows its control and invisible characters, as every text
// output does: a bidi override in a name reorders no message in the
// editor's problems list, and a line feed starts no line of its own.
func TestDiagnosticsEscapeValues(t *testing.T) {
	root := t.TempDir()
	for rel, src := range map[string]string{
		"cue.mod/module.cue": "module: \"example.com/x\"\nlanguage: version: \"v0.17.0\"\n",
		"a.cue":              "package charter\n\nagents: ann: {name: \"Ann\", type: \"personal_assistant\", model: {provider: \"openai\", model_id: \"m\\u202e\\nX\", fallback_model: \"m\\u202e\\nX\"}}\nmodels: \"m\\u202e\\nX\": context_window: 100000\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := start(t, root)
	c.wait()
	c.open("a.cue", c.read("a.cue"))
	c.wait()
	msgs := messages(c.diagnostics("a.cue"))
	if !strings.Contains(msgs, `fallback_model is m\u202e\nX, the model itself`) {
		t.Errorf("diagnostics:\n%s\nwant the model id escaped, m\\u202e\\nX", msgs)
	}
	if strings.ContainsAny(msgs, "\u202e") {
		t.Errorf("diagnostics hold a bidi override:\n%q", msgs)
	}
}
