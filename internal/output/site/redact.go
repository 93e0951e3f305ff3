package site

import (
	"bytes"
	"html"

	"github.com/charter-dev/charter/internal/output/secret"
	"github.com/charter-dev/charter/render"
)

// redactPage returns a page with every credential replaced by its
// redacted form (docs/design.md §13: no command writes one, in any
// format; the site is written to files, not through the redacting writer
// every command's output passes). Values reach a page escaped (html/template writes + as
// &#43; and " as &#34;, Graphviz writes - as &#45;), which would hide a
// credential's shape from the detector: it reads the text with character
// references decoded, and each credential found is replaced in the page,
// its references included. The redacted form needs no escaping.
func redactPage(b []byte) []byte {
	if bytes.IndexByte(b, '&') < 0 {
		if !secret.MayContain(string(b)) {
			return b
		}
		return []byte(secret.Redact(string(b)))
	}
	// view is the page with references decoded; from[i] and to[i] are the
	// bytes of the page view[i] was read from (kept only for a page that
	// holds a credential: most hold none).
	var view []byte
	var from, to []int
	decode := func(mapped bool) {
		view = make([]byte, 0, len(b))
		for i := 0; i < len(b); {
			n := 1
			dec := b[i : i+1]
			if b[i] == '&' {
				if end := bytes.IndexByte(b[i:min(len(b), i+12)], ';'); end > 1 {
					ref := string(b[i : i+end+1])
					if s := html.UnescapeString(ref); s != ref {
						n, dec = end+1, []byte(s)
					}
				}
			}
			if mapped {
				for range dec {
					from = append(from, i)
					to = append(to, i+n)
				}
			}
			view = append(view, dec...)
			i += n
		}
	}
	decode(false)
	if !secret.MayContain(string(view)) || len(secret.Find(string(view))) == 0 {
		return b
	}
	from, to = make([]int, 0, len(b)), make([]int, 0, len(b))
	decode(true)
	ms := secret.Find(string(view))
	var out bytes.Buffer
	last := 0
	for _, m := range ms {
		start, end := from[m.Start], to[m.End-1]
		if start < last {
			continue
		}
		out.Write(b[last:start])
		out.WriteString(secret.Redacted(string(view[m.Start:m.End])))
		last = end
	}
	out.Write(b[last:])
	return out.Bytes()
}

// redactLines redacts a prompt's lines as `charter render --sources` does
// (secret.RedactLines): the body and footer of a PEM private key whose
// header one line holds are left out of the lines after it, which a page
// shows in rows of their own.
func redactLines(lines []render.Line) []render.Line {
	texts := make([]string, len(lines))
	for i, l := range lines {
		texts[i] = l.Text
	}
	texts = secret.RedactLines(texts)
	out := make([]render.Line, len(lines))
	for i, l := range lines {
		l.Text = texts[i]
		out[i] = l
	}
	return out
}
