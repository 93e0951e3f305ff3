package main

import (
	"crypto/sha256"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strconv"
	"testing/fstest"

	"cuelang.org/go/cue/parser"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/charter-dev/charter/load"
	"github.com/charter-dev/charter/source"
)

// logCaches turns off, when false, every cache agentScope keeps (file
// classes, evaluations by scoped content, one schema for all of them) and
// makes log list every tree whole: tests compare the output with and
// without them.
var logCaches = true

// agentScope evaluates, for one agent, only the files that can affect it:
// every file that declares something other than agents, and the files that
// declare this agent. A file holding nothing but other agents cannot change
// this agent's resolved document, so a commit that only touches such files
// needs no evaluation at all. Files are classified once per blob.
//
// The scope follows one tree at a time: update sets it from a tree listed
// whole, apply from the files that changed since the tree before, and
// evaluate evaluates it.
type agentScope struct {
	id string
	// class holds each file's class by content.
	class map[contentKey]fileClass
	// evals holds each evaluation by the paths and contents of the files
	// it scoped.
	evals map[string]*evaluation
	// loader builds the schema once for many evaluations.
	loader *load.Loader
	// blob, when set, reads a file by its Git blob id, without looking
	// its path up in the tree.
	blob func(plumbing.Hash) ([]byte, error)
	// scoped holds the files of the current tree in the agent's scope;
	// nil when there is no current tree (none yet, or an update failed).
	scoped map[string]contentKey
}

// contentKey names a file's content: by its Git blob id, or by the
// SHA-256 of its bytes where the blob id is not known.
type contentKey struct {
	blob plumbing.Hash
	sum  [sha256.Size]byte
}

type fileClass struct {
	agentsOnly bool
	ids        map[string]bool
}

func newAgentScope(id string) *agentScope {
	s := &agentScope{id: id, class: map[contentKey]fileClass{}, evals: map[string]*evaluation{}}
	if logCaches {
		s.loader = new(load.Loader)
	}
	return s
}

// treeFiles is the listing of a config tree: the .cue files load reads,
// with their Git blob ids where fsys is a Git tree (zero elsewhere).
type treeFiles struct {
	paths []string
	blobs []plumbing.Hash
	err   error
}

// listFiles lists the .cue files of fsys without reading them.
func listFiles(fsys fs.FS) treeFiles {
	paths, entries, _, err := load.CUEFileEntries(fsys)
	t := treeFiles{paths: paths, blobs: make([]plumbing.Hash, len(paths)), err: err}
	for i, d := range entries {
		t.blobs[i], _ = source.BlobHash(d)
	}
	return t
}

// fileChange is a change to the files load reads: the file at path now
// holds blob, or, when blob is zero, is no longer read.
type fileChange struct {
	path string
	blob plumbing.Hash
}

// fileChanges returns the changes among the files load reads between two
// trees, from their difference.
func fileChanges(diff []source.TreeChange) []fileChange {
	var out []fileChange
	for _, c := range diff {
		name := path.Base(c.Path)
		was := c.From != (source.TreeFile{}) && load.Reads(name, c.From.Type())
		is := c.To != (source.TreeFile{}) && load.Reads(name, c.To.Type())
		switch {
		case is:
			out = append(out, fileChange{c.Path, c.To.Hash})
		case was:
			out = append(out, fileChange{c.Path, plumbing.ZeroHash})
		}
	}
	return out
}

// update makes the listed tree fsys the current one.
func (s *agentScope) update(fsys fs.FS, t treeFiles) error {
	s.scoped = nil
	if t.err != nil {
		return t.err
	}
	scoped := map[string]contentKey{}
	for i, p := range t.paths {
		// A Git blob id names the content without reading it.
		key := contentKey{blob: t.blobs[i]}
		if key.blob.IsZero() {
			b, err := s.read(fsys, p, key)
			if err != nil {
				return err
			}
			key.sum = sha256.Sum256(b)
		}
		in, err := s.inScope(fsys, p, key)
		if err != nil {
			return err
		}
		if in {
			scoped[p] = key
		}
	}
	s.scoped = scoped
	return nil
}

// apply makes the current tree the tree fsys, which differs from it by cs.
func (s *agentScope) apply(fsys fs.FS, cs []fileChange) error {
	for _, c := range cs {
		in := false
		if !c.blob.IsZero() {
			var err error
			if in, err = s.inScope(fsys, c.path, contentKey{blob: c.blob}); err != nil {
				s.scoped = nil
				return err
			}
		}
		if in {
			s.scoped[c.path] = contentKey{blob: c.blob}
		} else {
			delete(s.scoped, c.path)
		}
	}
	return nil
}

// inScope reports whether the file p, with the content key names, is in
// the agent's scope.
func (s *agentScope) inScope(fsys fs.FS, p string, key contentKey) (bool, error) {
	c, ok := s.class[key]
	if !ok || !logCaches {
		b, err := s.read(fsys, p, key)
		if err != nil {
			return false, err
		}
		c = classify(p, b)
		s.class[key] = c
	}
	return !c.agentsOnly || c.ids[s.id], nil
}

// read reads the file p of fsys, whose content key names.
func (s *agentScope) read(fsys fs.FS, p string, key contentKey) ([]byte, error) {
	if s.blob != nil && !key.blob.IsZero() {
		return s.blob(key.blob)
	}
	return fs.ReadFile(fsys, p)
}

// evaluate returns the evaluation of the files of the current tree, fsys,
// in the agent's scope, reusing an earlier one when the same files (by
// content) were in scope. When the scoped files do not evaluate on their
// own (they refer to a file left out), the whole tree is evaluated
// instead, and that evaluation is not reused: it depends on files outside
// the scope.
func (s *agentScope) evaluate(fsys fs.FS, name string) (*evaluation, error) {
	paths := slices.Sorted(maps.Keys(s.scoped))
	h := sha256.New()
	for _, p := range paths {
		key := s.scoped[p]
		h.Write(strconv.AppendInt(nil, int64(len(p)), 10))
		h.Write([]byte{':'})
		h.Write([]byte(p))
		h.Write(key.blob[:])
		h.Write(key.sum[:])
	}
	fp := string(h.Sum(nil))
	e, ok := s.evals[fp]
	if !ok || !logCaches {
		scoped := fstest.MapFS{}
		for _, p := range paths {
			b, err := s.read(fsys, p, s.scoped[p])
			if err != nil {
				return nil, err
			}
			scoped[p] = &fstest.MapFile{Data: b, Mode: 0o644}
		}
		var err error
		if e, err = evaluateWith(s.loader, scoped, name); err != nil {
			return nil, err
		}
		s.evals[fp] = e
	}
	if e.prog == nil {
		return evaluateWith(s.loader, fsys, name)
	}
	return e, nil
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
