package main

import (
	"crypto/sha256"
	"io/fs"
	"strconv"
	"testing/fstest"

	"cuelang.org/go/cue/parser"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/charter-dev/charter/load"
	"github.com/charter-dev/charter/source"
)

// logCaches turns off, when false, every cache agentScope keeps (file
// classes, evaluations by scoped content, one schema for all of them):
// tests compare the output with and without them.
var logCaches = true

// agentScope evaluates, for one agent, only the files that can affect it:
// every file that declares something other than agents, and the files that
// declare this agent. A file holding nothing but other agents cannot change
// this agent's resolved document, so a commit that only touches such files
// needs no evaluation at all. Files are classified once per blob.
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
	// its path up in the tree again.
	blob func(plumbing.Hash) ([]byte, error)
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
	fsys  fs.FS
	paths []string
	blobs []plumbing.Hash
	err   error
}

// listFiles lists the .cue files of fsys without reading them.
func listFiles(fsys fs.FS) treeFiles {
	paths, entries, _, err := load.CUEFileEntries(fsys)
	t := treeFiles{fsys: fsys, paths: paths, blobs: make([]plumbing.Hash, len(paths)), err: err}
	for i, d := range entries {
		t.blobs[i], _ = source.BlobHash(d)
	}
	return t
}

// scopedFile is a file in the agent's scope; data is nil until read.
type scopedFile struct {
	path string
	key  contentKey
	data []byte
}

// read reads f's content unless it was read already.
func (s *agentScope) read(fsys fs.FS, f *scopedFile) error {
	if f.data != nil {
		return nil
	}
	var err error
	if s.blob != nil && !f.key.blob.IsZero() {
		f.data, err = s.blob(f.key.blob)
	} else {
		f.data, err = fs.ReadFile(fsys, f.path)
	}
	return err
}

// evaluate returns the evaluation of the listed files in the agent's
// scope, reusing an earlier one when the same files (by content) are in
// scope. When the scoped files do not evaluate on their own (they refer to
// a file left out), the whole tree is evaluated instead.
func (s *agentScope) evaluate(t treeFiles, name string) (*evaluation, error) {
	files, fp, err := s.files(t)
	if err != nil {
		return nil, err
	}
	if e, ok := s.evals[fp]; ok && logCaches {
		return e, nil
	}
	scoped := fstest.MapFS{}
	for _, f := range files {
		if err := s.read(t.fsys, &f); err != nil {
			return nil, err
		}
		scoped[f.path] = &fstest.MapFile{Data: f.data, Mode: 0o644}
	}
	e, err := evaluateWith(s.loader, scoped, name)
	if err != nil {
		return nil, err
	}
	if e.prog == nil {
		// The scoped files may refer to an agent left out; judge the
		// whole tree.
		if e, err = evaluateWith(s.loader, t.fsys, name); err != nil {
			return nil, err
		}
	}
	s.evals[fp] = e
	return e, nil
}

// files returns the listed files in the agent's scope, and a fingerprint
// of their paths and contents. A file's content is read only when its
// class is not known yet.
func (s *agentScope) files(t treeFiles) ([]scopedFile, string, error) {
	if t.err != nil {
		return nil, "", t.err
	}
	var files []scopedFile
	fp := sha256.New()
	for i, p := range t.paths {
		// A Git blob id names the content without reading it.
		f := scopedFile{path: p, key: contentKey{blob: t.blobs[i]}}
		if f.key.blob.IsZero() {
			if err := s.read(t.fsys, &f); err != nil {
				return nil, "", err
			}
			f.key.sum = sha256.Sum256(f.data)
		}
		c, ok := s.class[f.key]
		if !ok || !logCaches {
			if err := s.read(t.fsys, &f); err != nil {
				return nil, "", err
			}
			c = classify(p, f.data)
			s.class[f.key] = c
		}
		if c.agentsOnly && !c.ids[s.id] {
			continue
		}
		files = append(files, f)
		fp.Write(strconv.AppendInt(nil, int64(len(p)), 10))
		fp.Write([]byte{':'})
		fp.Write([]byte(p))
		fp.Write(f.key.blob[:])
		fp.Write(f.key.sum[:])
	}
	return files, string(fp.Sum(nil)), nil
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
