package history

import (
	"crypto/sha256"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing/fstest"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/literal"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/repo/source"
)

// agentScope evaluates, for one agent, only the files that can affect it:
// every file that declares something other than agents, and the files that
// declare this agent. A file holding nothing but other agents cannot change
// this agent's resolved document, so a commit that only touches such files
// needs no evaluation at all. Files are classified once per blob.
//
// When the files in scope do not evaluate on their own (they refer to an
// agent left out: a CUE reference, a test that names it), the scope
// grows by the files that declare the agents they mention, by identifier
// or string, and those the new files mention, and so on. The whole tree is
// never evaluated: its validity would depend on every agent, and every
// commit would need an evaluation of its own.
//
// The scope follows one tree at a time: update sets it from a tree listed
// whole, apply from the files that changed since the tree before, and
// evaluate evaluates it.
type agentScope struct {
	id string
	// caches is AgentOptions.NoCaches negated: when false every cache
	// below is bypassed.
	caches bool
	// class holds the classes of the files met last, by content.
	class *recent[contentKey, fileClass]
	// evals holds the evaluations made last, by the paths and contents of
	// the files they scoped.
	evals *recent[string, *revision.Revision]
	// ev builds the schema once for many evaluations.
	ev *revision.Evaluator
	// blob, when set, reads a file by its Git blob id, without looking
	// its path up in the tree.
	blob func(plumbing.Hash) ([]byte, error)
	// files holds every file of the current tree that load reads, and
	// scoped those in the agent's scope, by path; nil when there is no
	// current tree (none yet, or an update failed).
	files, scoped map[string]contentKey
	// mentions holds the names the files met last mention, by content.
	mentions *recent[contentKey, map[string]bool]
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

// The sizes of the caches of a scope and an agent's log. Those by file
// grow to twice the files of the largest tree met (see recent.atLeast).
var (
	minFiles        = 256
	keptEvaluations = 2
	keptSnapshots   = 64
)

func newAgentScope(id string, caches bool) *agentScope {
	s := &agentScope{id: id, caches: caches, class: newRecent[contentKey, fileClass](minFiles),
		evals: newRecent[string, *revision.Revision](keptEvaluations), mentions: newRecent[contentKey, map[string]bool](minFiles)}
	if caches {
		s.ev = new(revision.Evaluator)
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

// start makes the empty tree the current one.
func (s *agentScope) start() {
	s.files, s.scoped = map[string]contentKey{}, map[string]contentKey{}
}

// update makes the listed tree fsys the current one.
func (s *agentScope) update(fsys fs.FS, t treeFiles) error {
	s.files, s.scoped = nil, nil
	if t.err != nil {
		return t.err
	}
	files, scoped := map[string]contentKey{}, map[string]contentKey{}
	s.class.atLeast(2 * len(t.paths))
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
		files[p] = key
		if in {
			scoped[p] = key
		}
	}
	s.files, s.scoped = files, scoped
	return nil
}

// apply makes the current tree the tree fsys, which differs from it by cs.
func (s *agentScope) apply(fsys fs.FS, cs []fileChange) error {
	for _, c := range cs {
		key := contentKey{blob: c.blob}
		if c.blob.IsZero() {
			delete(s.files, c.path)
			delete(s.scoped, c.path)
			continue
		}
		in, err := s.inScope(fsys, c.path, key)
		if err != nil {
			s.files, s.scoped = nil, nil
			return err
		}
		s.files[c.path] = key
		if in {
			s.scoped[c.path] = key
		} else {
			delete(s.scoped, c.path)
		}
	}
	return nil
}

// inScope reports whether the file p, with the content key names, is in
// the agent's scope.
func (s *agentScope) inScope(fsys fs.FS, p string, key contentKey) (bool, error) {
	c, err := s.classOf(fsys, p, key)
	return !c.agentsOnly || c.ids[s.id], err
}

// classOf returns the class of the file p, with the content key names.
func (s *agentScope) classOf(fsys fs.FS, p string, key contentKey) (fileClass, error) {
	c, ok := s.class.get(key)
	if !ok || !s.caches {
		b, err := s.read(fsys, p, key)
		if err != nil {
			return fileClass{}, err
		}
		c = classify(p, b)
		s.class.put(key, c)
	}
	return c, nil
}

// read reads the file p of fsys, whose content key names.
func (s *agentScope) read(fsys fs.FS, p string, key contentKey) ([]byte, error) {
	if s.blob != nil && !key.blob.IsZero() {
		return s.blob(key.blob)
	}
	return fs.ReadFile(fsys, p)
}

// evaluate returns the evaluation of the current tree, fsys, for the
// agent: that of the files in scope, or, when they do not validate on
// their own, that of those and the files that declare the agents they
// mention. An evaluation is reused for every tree with the same files, by
// content.
func (s *agentScope) evaluate(fsys fs.FS, name string) (*revision.Revision, error) {
	e, err := s.evaluateFiles(fsys, s.scoped, name)
	if err != nil || e.OK() {
		return e, err
	}
	more, err := s.closure(fsys)
	if err != nil || len(more) == len(s.scoped) {
		return e, err
	}
	return s.evaluateFiles(fsys, more, name)
}

// evaluateFiles evaluates the given files of fsys, or returns the
// evaluation of the same files (by path and content) made before. The
// agents the files mention that other files of the tree declare count as
// declared (revision.EvaluateScope): a manager named in reports_to is
// there, though its file is not in scope.
func (s *agentScope) evaluateFiles(fsys fs.FS, files map[string]contentKey, name string) (*revision.Revision, error) {
	elsewhere, err := s.elsewhere(fsys, files)
	if err != nil {
		return nil, err
	}
	paths, fp := fingerprint(files)
	fp += strings.Join(slices.Sorted(maps.Keys(elsewhere)), "\x00")
	if e, ok := s.evals.get(fp); ok && s.caches {
		return e, nil
	}
	scoped := fstest.MapFS{}
	for _, p := range paths {
		b, err := s.read(fsys, p, files[p])
		if err != nil {
			return nil, err
		}
		scoped[p] = &fstest.MapFile{Data: b, Mode: 0o644}
	}
	ev := s.ev
	if ev == nil {
		ev = new(revision.Evaluator)
	}
	e, err := ev.EvaluateScope(scoped, name, elsewhere)
	if err != nil {
		return nil, err
	}
	s.evals.put(fp, e)
	return e, nil
}

// elsewhere returns the agents the files mention that other files of the
// current tree declare.
func (s *agentScope) elsewhere(fsys fs.FS, files map[string]contentKey) (map[string]bool, error) {
	s.mentions.atLeast(2 * len(s.files))
	s.class.atLeast(2 * len(s.files))
	mentioned := map[string]bool{}
	for p, key := range files {
		m, ok := s.mentions.get(key)
		if !ok || !s.caches {
			b, err := s.read(fsys, p, key)
			if err != nil {
				return nil, err
			}
			m = mentions(p, b)
			s.mentions.put(key, m)
		}
		maps.Copy(mentioned, m)
	}
	out := map[string]bool{}
	for p, key := range s.files {
		if _, in := files[p]; in {
			continue
		}
		c, err := s.classOf(fsys, p, key)
		if err != nil {
			return nil, err
		}
		for id := range c.ids {
			if mentioned[id] {
				out[id] = true
			}
		}
	}
	return out, nil
}

// fingerprint returns the paths of files, sorted, and a key naming them
// and their contents.
func fingerprint(files map[string]contentKey) ([]string, string) {
	paths := slices.Sorted(maps.Keys(files))
	h := sha256.New()
	for _, p := range paths {
		key := files[p]
		h.Write(strconv.AppendInt(nil, int64(len(p)), 10))
		h.Write([]byte{':'})
		h.Write([]byte(p))
		h.Write(key.blob[:])
		h.Write(key.sum[:])
	}
	return paths, string(h.Sum(nil))
}

// closure returns the files in scope and those that declare an agent
// they mention, and so on, until no file declares an agent mentioned.
func (s *agentScope) closure(fsys fs.FS) (map[string]contentKey, error) {
	in := maps.Clone(s.scoped)
	s.class.atLeast(2 * len(s.files))
	s.mentions.atLeast(2 * len(s.files))
	mentioned := map[string]bool{}
	mention := func(p string, key contentKey) error {
		m, ok := s.mentions.get(key)
		if !ok || !s.caches {
			b, err := s.read(fsys, p, key)
			if err != nil {
				return err
			}
			m = mentions(p, b)
			s.mentions.put(key, m)
		}
		maps.Copy(mentioned, m)
		return nil
	}
	for p, key := range in {
		if err := mention(p, key); err != nil {
			return nil, err
		}
	}
	for grown := true; grown; {
		grown = false
		for p, key := range s.files {
			if _, ok := in[p]; ok {
				continue
			}
			c, err := s.classOf(fsys, p, key)
			if err != nil {
				return nil, err
			}
			for id := range c.ids {
				if mentioned[id] {
					in[p] = key
					if err := mention(p, key); err != nil {
						return nil, err
					}
					grown = true
					break
				}
			}
		}
	}
	return in, nil
}

// mentions returns the identifiers and the values of the one-line string
// literals in a file: the names by which it may refer to an agent.
func mentions(p string, b []byte) map[string]bool {
	out := map[string]bool{}
	f, err := parser.ParseFile(p, b)
	if err != nil {
		return out
	}
	ast.Walk(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			out[n.Name] = true
		case *ast.BasicLit:
			if n.Kind == token.STRING && !strings.Contains(n.Value, "\n") {
				if v, err := literal.Unquote(n.Value); err == nil {
					out[v] = true
				}
			}
		}
		return true
	}, nil)
	return out
}

// classify parses a file and says whether it declares agents only, and
// which. Comments do not change that, so they are not kept.
func classify(p string, b []byte) fileClass {
	f, err := parser.ParseFile(p, b)
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
