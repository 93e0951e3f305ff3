package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"testing/fstest"

	"cuelang.org/go/cue/parser"

	"github.com/charter-dev/charter/load"
)

// logCaches turns off, when false, every cache agentScope keeps (file
// classes, evaluations by scoped content): tests compare the output with
// and without them.
var logCaches = true

// agentScope evaluates, for one agent, only the files that can affect it:
// every file that declares something other than agents, and the files that
// declare this agent. A file holding nothing but other agents cannot change
// this agent's resolved document, so a commit that only touches such files
// needs no evaluation at all. Files are classified once per blob.
type agentScope struct {
	id    string
	class map[string]fileClass // by blob id (or path and content hash)
	last  map[string]*evaluation
}

type fileClass struct {
	agentsOnly bool
	ids        map[string]bool
}

func newAgentScope(id string) *agentScope {
	return &agentScope{id: id, class: map[string]fileClass{}, last: map[string]*evaluation{}}
}

// evaluate returns the evaluation of the files of fsys in the agent's
// scope, reusing an earlier one when the same files (by content) are in
// scope. When the scoped files do not evaluate on their own (they refer to
// a file left out), the whole tree is evaluated instead.
func (s *agentScope) evaluate(fsys fs.FS, name string) (*evaluation, error) {
	paths, _, err := load.CUEFiles(fsys)
	if err != nil {
		return nil, err
	}
	scoped := fstest.MapFS{}
	h := sha256.New()
	for _, p := range paths {
		// A Git blob id names the content without reading it.
		key, known := blobID(fsys, p)
		if c, ok := s.class[key]; logCaches && known && ok && c.agentsOnly && !c.ids[s.id] {
			continue
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil, err
		}
		if !known {
			sum := sha256.Sum256(b)
			key = hex.EncodeToString(sum[:])
		}
		c, ok := s.class[key]
		if !ok || !logCaches {
			c = classify(p, b)
			s.class[key] = c
		}
		if c.agentsOnly && !c.ids[s.id] {
			continue
		}
		scoped[p] = &fstest.MapFile{Data: b, Mode: 0o644}
		fmt.Fprintf(h, "%s\x00%s\x00", p, key)
	}
	fp := hex.EncodeToString(h.Sum(nil))
	if e, ok := s.last[fp]; ok && logCaches {
		return e, nil
	}
	e, err := evaluate(scoped, name)
	if err != nil {
		return nil, err
	}
	if e.prog == nil {
		// The scoped files may refer to an agent left out; judge the
		// whole tree.
		if e, err = evaluate(fsys, name); err != nil {
			return nil, err
		}
	}
	s.last[fp] = e
	return e, nil
}

// blobID returns a file's Git blob id when the file system is a Git tree.
func blobID(fsys fs.FS, p string) (string, bool) {
	if b, ok := fsys.(interface{ BlobID(string) (string, bool) }); ok {
		return b.BlobID(p)
	}
	return "", false
}

func classify(p string, b []byte) fileClass {
	f, err := parser.ParseFile(p, b, parser.ParseComments)
	if err != nil {
		return fileClass{}
	}
	ids, ok := load.AgentsOnly(f)
	c := fileClass{agentsOnly: ok, ids: map[string]bool{}}
	for _, id := range ids {
		c.ids[id] = true
	}
	return c
}
