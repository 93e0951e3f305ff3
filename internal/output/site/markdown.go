package site

import (
	"bytes"
	"fmt"
	"html"
	"html/template"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/charter-dev/charter/internal/gmtable"
	"github.com/charter-dev/charter/internal/output/docsgen"
)

// markdown turns the Markdown charter docs writes into HTML for a page of
// the site: links to its .md pages point to the site's .html pages, heading
// ids are the anchors docsgen links to, and raw HTML and images show as
// text (the only HTML docsgen itself writes is <br> in table cells; the
// site loads nothing from elsewhere). It returns the
// page's title (the first heading, left out of the body) and its body.
func markdown(md []byte) (string, template.HTML, error) {
	md = bytes.TrimPrefix(md, []byte(docsgen.Marker+"\n"))
	title := ""
	if rest, ok := bytes.CutPrefix(bytes.TrimLeft(md, "\n"), []byte("# ")); ok {
		line, body, _ := bytes.Cut(rest, []byte("\n"))
		title, md = string(line), body
	}
	gm := goldmark.New(
		goldmark.WithExtensions(gmtable.Table),
		goldmark.WithParserOptions(parser.WithAutoHeadingID(), parser.WithASTTransformers(util.Prioritized(mdLinks{}, 100))),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(rawAsText{}, 100))),
	)
	var out bytes.Buffer
	ctx := parser.NewContext(parser.WithIDs(&anchors{seen: map[string]int{}}))
	if err := gm.Convert(md, &out, parser.WithContext(ctx)); err != nil {
		return "", "", fmt.Errorf("rendering the reference: %w", err)
	}
	// A code block or a table scrolls when its lines are long: it takes
	// the keyboard focus, so that it can be scrolled without a mouse.
	body := strings.NewReplacer("<pre>", `<pre tabindex="0">`, "<table>", `<table tabindex="0">`).Replace(out.String())
	return title, template.HTML(body), nil
}

// mdLinks points links to docsgen's .md pages to the site's .html pages.
type mdLinks struct{}

func (mdLinks) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if l, ok := n.(*ast.Link); ok && entering {
			l.Destination = []byte(htmlLink(string(l.Destination)))
		}
		return ast.WalkContinue, nil
	})
}

// htmlLink rewrites a relative link to page.md or page.md#frag.
func htmlLink(dest string) string {
	if strings.Contains(dest, ":") {
		return dest
	}
	page, frag, hasFrag := strings.Cut(dest, "#")
	if p, ok := strings.CutSuffix(page, ".md"); ok {
		page = p + ".html"
	}
	if hasFrag {
		return page + "#" + frag
	}
	return page
}

// anchors gives headings the ids docsgen's links name (GitHub's), with
// -1, -2 for repeats.
type anchors struct{ seen map[string]int }

func (a *anchors) Generate(value []byte, _ ast.NodeKind) []byte {
	id := docsgen.Anchor(string(value))
	if id == "" {
		id = "section"
	}
	n := a.seen[id]
	a.seen[id] = n + 1
	if n > 0 {
		id = fmt.Sprintf("%s-%d", id, n)
	}
	return []byte(id)
}

func (a *anchors) Put(value []byte) { a.seen[string(value)]++ }

// rawAsText renders raw HTML in Markdown as the text it is, except the
// <br> docsgen writes for a line break in a table cell, and an image as
// its Markdown.
type rawAsText struct{}

func (rawAsText) RegisterFuncs(r renderer.NodeRendererFuncRegisterer) {
	r.Register(ast.KindRawHTML, func(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkSkipChildren, nil
		}
		segs := n.(*ast.RawHTML).Segments
		for i := range segs.Len() {
			seg := segs.At(i)
			s := string(seg.Value(source))
			if s == "<br>" {
				_, _ = w.WriteString(s)
				continue
			}
			_, _ = w.WriteString(html.EscapeString(s))
		}
		return ast.WalkSkipChildren, nil
	})
	// An image would be a request for a file outside the site (a
	// description may hold ![x](https://...)): it shows as its Markdown.
	r.Register(ast.KindImage, func(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkSkipChildren, nil
		}
		img := n.(*ast.Image)
		var alt bytes.Buffer
		_ = ast.Walk(img, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
			if t, ok := c.(*ast.Text); ok && entering {
				alt.Write(t.Segment.Value(source))
			}
			return ast.WalkContinue, nil
		})
		_, _ = w.WriteString(html.EscapeString("![" + alt.String() + "](" + string(img.Destination) + ")"))
		return ast.WalkSkipChildren, nil
	})
	r.Register(ast.KindHTMLBlock, func(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		b := n.(*ast.HTMLBlock)
		if entering {
			_, _ = w.WriteString("<p>")
			for i := range b.Lines().Len() {
				l := b.Lines().At(i)
				_, _ = w.WriteString(html.EscapeString(string(l.Value(source))))
			}
		} else {
			if b.HasClosure() {
				closure := b.ClosureLine
				_, _ = w.WriteString(html.EscapeString(string(closure.Value(source))))
			}
			_, _ = w.WriteString("</p>\n")
		}
		return ast.WalkContinue, nil
	})
}
