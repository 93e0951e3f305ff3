package mdtext

import (
	"bytes"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	ghtml "github.com/yuin/goldmark/renderer/html"

	"github.com/charter-dev/charter/internal/output/diag"
)

// gfm renders Markdown as GitHub does (tables, strikethrough, autolinks),
// with raw HTML allowed: the reader that would run an <img onerror>.
var gfm = goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(ghtml.WithUnsafe()))

func renderMD(t testing.TB, md string) string {
	var b bytes.Buffer
	if err := gfm.Convert([]byte(md), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

var tag = regexp.MustCompile(`<[^>]*>`)

// shown is what a reader sees of text written with Escape: the text,
// control characters escaped (blanks are compared as one space).
func shown(s string) string {
	return diag.Escape(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
}

// check renders Escape(s) in a paragraph and requires paragraphs (a blank
// line starts another) whose text is s as shown, and no other element.
func check(t testing.TB, s string) {
	out := renderMD(t, "x "+Escape(s)+"\n")
	tags := tag.FindAllString(out, -1)
	for _, tg := range tags {
		if tg != "<p>" && tg != "</p>" {
			t.Fatalf("Escape(%q) = %q renders an element %s:\n%s", s, Escape(s), tg, out)
		}
	}
	got := strings.Join(strings.Fields(html.UnescapeString(tag.ReplaceAllString(out, ""))), " ")
	if want := strings.Join(strings.Fields("x "+shown(s)), " "); got != want {
		t.Fatalf("Escape(%q) = %q renders as %q, want %q", s, Escape(s), got, want)
	}
}

func TestEscapeRendersAsText(t *testing.T) {
	for _, s := range []string{
		"plain text",
		`<img src=x onerror=alert(1)>`,
		"<script>alert(1)</script>",
		"[click](javascript:alert(1)) and ![x](http://evil/x.png)",
		"*bold* _it_ `code` ~~gone~~ a|b",
		"# heading\n- item\n+ item\n1. one\n2) two\n> quote\n---\n===",
		"    indented code\n```\nfence\n```",
		"&amp; &#60; entity",
		"<http://example.com> autolink",
		"back\\slash \\* and trailing\\",
		"ghp_" + "x_y_z",
	} {
		t.Run("", func(t *testing.T) { check(t, s) })
	}
}

func FuzzEscape(f *testing.F) {
	for _, s := range []string{"<img src=x onerror=y>", "[a](b)", "1. x\n- y", "a\n\n# b", "``` x", "&lt;"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { check(t, s) })
}
