package lsp

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	cuefiles "github.com/charter-dev/charter/cue"
)

func (s *Server) definition(_ *glsp.Context, p *protocol.DefinitionParams) (any, error) {
	d, c, snap, off := s.at(p.TextDocument.URI, p.Position)
	if d == nil || c == nil || snap.cfg == nil {
		return nil, nil
	}
	r := resolve(c, snap.cfg)
	if r == nil {
		return nil, nil
	}
	if r.kind == "template" {
		// A runtime placeholder is declared under the type's variables.
		name, ok := placeholderAt(d.text.src, off)
		if !ok {
			return nil, nil
		}
		r.decl = "agentTypes." + r.owner + ".variables." + name
	}
	l, ok := s.find(snap, r.decl)
	if !ok {
		return nil, nil
	}
	return s.location(l)
}

// location turns a declaration's place into an LSP location: a user file,
// or the read-only copy of the standard library.
func (s *Server) location(l loc) (*protocol.Location, error) {
	var path, src string
	if rel, ok := strings.CutPrefix(l.file, stdlibPrefix); ok {
		dir, err := s.stdlibDir()
		if err != nil {
			return nil, err
		}
		b, _ := fs.ReadFile(cuefiles.FS, rel)
		path, src = filepath.Join(dir, filepath.FromSlash(rel)), string(b)
	} else {
		s.mu.Lock()
		root := s.root
		path = filepath.Join(root, filepath.FromSlash(l.file))
		uri := pathURI(path)
		if d := s.docs[uri]; d != nil {
			src = d.text.src
		}
		s.mu.Unlock()
		if src == "" {
			b, _ := os.ReadFile(path)
			src = string(b)
		}
	}
	t := newText(src)
	off := t.at(l.line, l.col)
	return &protocol.Location{URI: pathURI(path), Range: t.rangeOf(off, t.tokenEnd(off))}, nil
}
