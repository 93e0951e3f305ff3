package site

import (
	"bytes"
	"html"
	"strings"

	"github.com/charter-dev/charter/bundle"
	"github.com/charter-dev/charter/render"
	"github.com/charter-dev/charter/secret"
)

// redactFiles replaces every credential in the site's files by its
// redacted form (DESIGN.md section 9: no command writes one, in any
// format; the site is written to files, not through the redacting writer
// every command's output passes).
func redactFiles(files bundle.Tree) {
	for name, b := range files {
		files[name] = redactPage(b)
	}
}

// redactPage returns a page with every credential replaced by its
// redacted form. Values reach a page escaped (html/template writes + as
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
	// bytes of the page view[i] was read from.
	view := make([]byte, 0, len(b))
	from := make([]int, 0, len(b))
	to := make([]int, 0, len(b))
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
		for range dec {
			from = append(from, i)
			to = append(to, i+n)
		}
		view = append(view, dec...)
		i += n
	}
	if !secret.MayContain(string(view)) {
		return b
	}
	ms := secret.Find(string(view))
	if len(ms) == 0 {
		return b
	}
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

// redactLines redacts a prompt's lines as the redacting writer redacts
// `charter render --sources`, line by line: the body and footer of a PEM
// private key whose header one line holds are left out of the lines after
// it, which a page shows in rows of their own.
func redactLines(lines []render.Line) []render.Line {
	var buf strings.Builder
	w := secret.NewWriter(&buf)
	out := make([]render.Line, len(lines))
	for i, l := range lines {
		buf.Reset()
		_, _ = w.Write([]byte(l.Text))
		l.Text = buf.String()
		out[i] = l
	}
	return out
}
