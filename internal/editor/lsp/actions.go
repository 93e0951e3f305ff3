package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"cuelang.org/go/cue/ast"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/charter-dev/charter/internal/editor/cuefmt"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/internal/output/secret"
	"github.com/charter-dev/charter/lint"
)

// codeAction offers, for the diagnostics on the requested lines, the
// did-you-mean replacement the diagnostic carries and, for a lint finding,
// a // charter:ignore comment on the line above. The edits are part of the
// actions (nothing to resolve).
func (s *Server) codeAction(_ *glsp.Context, p *protocol.CodeActionParams) (any, error) {
	s.mu.Lock()
	d, snap := s.docs[p.TextDocument.URI], s.snap
	s.mu.Unlock()
	actions := []protocol.CodeAction{}
	if d == nil || d.rel == "" || snap == nil || !s.evaluated(snap, d) {
		return actions, nil
	}
	first, last := int(p.Range.Start.Line)+1, int(p.Range.End.Line)+1
	quickfix := protocol.CodeActionKindQuickFix
	for _, cd := range snap.diags[d.rel] {
		if cd.Line < first || cd.Line > last {
			continue
		}
		lspd := s.convert("", d.rel, d.text, []diag.Diagnostic{cd})
		if cd.Suggestion != "" {
			if edit, ok := replaceName(d.text, cd); ok {
				pref := true
				actions = append(actions, protocol.CodeAction{
					Title: secret.Redact(fmt.Sprintf("Replace with %q", cd.Suggestion)), Kind: &quickfix, Diagnostics: lspd, IsPreferred: &pref,
					Edit: &protocol.WorkspaceEdit{Changes: map[protocol.DocumentUri][]protocol.TextEdit{d.uri: {edit}}},
				})
			}
		}
		if _, ok := lint.Lookup(cd.Rule); ok {
			line := d.text.line(cd.Line - 1)
			indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
			start := d.text.position(d.text.lines[cd.Line-1])
			edit := protocol.TextEdit{Range: protocol.Range{Start: start, End: start},
				NewText: indent + "// charter:ignore " + cd.Rule + " TODO: say why this is acceptable\n"}
			actions = append(actions, protocol.CodeAction{
				Title: "Ignore " + cd.Rule + " here (// charter:ignore, with a reason)", Kind: &quickfix, Diagnostics: lspd,
				Edit: &protocol.WorkspaceEdit{Changes: map[protocol.DocumentUri][]protocol.TextEdit{d.uri: {edit}}},
			})
		}
	}
	return actions, nil
}

// evaluated reports whether snap's diagnostics of d are of d's text as it
// is: after an edit not evaluated yet, their positions are the old text's,
// and an edit made from them would land on what the edit moved there.
func (s *Server) evaluated(snap *snapshot, d *document) bool {
	src, ok := snap.inputs[d.rel]
	if !ok {
		// Not open when evaluated: the evaluation read the file on disk.
		s.mu.Lock()
		root := s.root
		s.mu.Unlock()
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(d.rel)))
		if err != nil {
			return false
		}
		src = string(b)
	}
	return src == d.text.src
}

// replaceName is the edit that puts the suggestion in place of the name at
// the diagnostic's position: a string's content, or a label (quoted when
// it is no identifier).
func replaceName(t *text, d diag.Diagnostic) (protocol.TextEdit, bool) {
	if d.Line < 1 || d.Line > len(t.lines) {
		return protocol.TextEdit{}, false
	}
	off := t.at(d.Line, d.Column)
	end := t.tokenEnd(off)
	if end <= off {
		return protocol.TextEdit{}, false
	}
	var repl string
	if t.src[off] == '"' {
		repl = strconv.Quote(d.Suggestion)
	} else if ast.IsValidIdent(d.Suggestion) {
		repl = d.Suggestion
	} else {
		repl = strconv.Quote(d.Suggestion)
	}
	return protocol.TextEdit{Range: t.rangeOf(off, end), NewText: repl}, true
}

// formatting formats the buffer as charter fmt does; a buffer that does
// not parse is left alone (its syntax error is a diagnostic already), and
// so is every file of a workspace that is not charter's.
func (s *Server) formatting(_ *glsp.Context, p *protocol.DocumentFormattingParams) ([]protocol.TextEdit, error) {
	s.mu.Lock()
	d, snap := s.docs[p.TextDocument.URI], s.snap
	s.mu.Unlock()
	if d == nil || d.rel == "" || snap != nil && snap.notCharter {
		return nil, nil
	}
	out, ds := cuefmt.Source(d.rel, []byte(d.text.src))
	if len(ds) > 0 || string(out) == d.text.src {
		return []protocol.TextEdit{}, nil
	}
	return []protocol.TextEdit{{Range: d.text.rangeOf(0, len(d.text.src)), NewText: string(out)}}, nil
}
