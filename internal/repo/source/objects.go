package source

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	commitgraph "github.com/go-git/go-git/v5/plumbing/format/commitgraph/v2"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// objects reads Git objects for a Repo and every file system made from it.
// go-git's file-system storage is not safe for concurrent use, so every
// read holds mu; decoded trees are cached by hash, which is safe because
// trees never change.
type objects struct {
	mu     sync.Mutex
	st     storer.EncodedObjectStorer
	closed bool
	// partial is set in a partial clone (extensions.partialClone), where
	// objects may be missing by design.
	partial bool
	// objectsDir is the objects directory; packs reads its packs (nil
	// until first used).
	objectsDir string
	packs      *packs

	// trees and oldTrees cache decoded trees by hash, in two
	// generations: when trees holds maxTrees, it becomes oldTrees and the
	// older generation is dropped; a tree found in oldTrees moves back.
	// The most recently used maxTrees trees are always kept.
	trees, oldTrees map[plumbing.Hash][]*node

	graphOpened bool
	noGraph     bool
	graph       commitgraph.Index
}

// maxTrees is the size of a generation of the tree cache. A history
// command lists a folder of agents per commit, hundreds of entries each:
// keeping them all kept tens of megabytes alive for the collector to scan.
const maxTrees = 256

func (o *objects) close() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.closed = true
	o.trees, o.oldTrees = nil, nil
	if o.packs != nil {
		o.packs.close()
	}
	if o.graph != nil {
		err := o.graph.Close()
		o.graph = nil
		return err
	}
	return nil
}

// readLocked returns the content of object h, which must be of type t.
// what names the object for error messages. The caller holds mu.
func (o *objects) readLocked(t plumbing.ObjectType, h plumbing.Hash, what string) ([]byte, error) {
	if o.closed {
		return nil, ErrClosed
	}
	if typ, b, ok := o.packsLocked().read(h); ok {
		if typ != t {
			return nil, &ObjectError{Hash: h, What: what, Err: fmt.Errorf("it is a %s, not a %s", typ, t)}
		}
		return b, nil
	}
	if typ, b, ok, err := o.loose(h); ok {
		switch {
		case err != nil:
			return nil, &ObjectError{Hash: h, What: what, Err: err}
		case typ != t:
			return nil, &ObjectError{Hash: h, What: what, Err: fmt.Errorf("it is a %s, not a %s", typ, t)}
		}
		return b, nil
	}
	obj, err := o.st.EncodedObject(plumbing.AnyObject, h)
	if err != nil {
		return nil, o.objectError(h, what, err)
	}
	if obj.Type() != t {
		return nil, &ObjectError{Hash: h, What: what, Err: fmt.Errorf("it is a %s, not a %s", obj.Type(), t)}
	}
	rd, err := obj.Reader()
	if err != nil {
		return nil, o.objectError(h, what, err)
	}
	defer rd.Close()
	b := make([]byte, 0, obj.Size())
	buf := bytes.NewBuffer(b)
	if _, err := io.Copy(buf, rd); err != nil {
		return nil, o.objectError(h, what, err)
	}
	return buf.Bytes(), nil
}

// encodedLocked returns object h. The caller holds mu.
func (o *objects) encodedLocked(h plumbing.Hash) (plumbing.EncodedObject, error) {
	if o.closed {
		return nil, ErrClosed
	}
	if typ, b, ok := o.packsLocked().read(h); ok {
		mo := &plumbing.MemoryObject{}
		mo.SetType(typ)
		mo.Write(b)
		return mo, nil
	}
	if typ, b, ok, err := o.loose(h); ok {
		if err != nil {
			return nil, &ObjectError{Hash: h, What: "object", Err: err}
		}
		mo := &plumbing.MemoryObject{}
		mo.SetType(typ)
		mo.Write(b)
		return mo, nil
	}
	return o.st.EncodedObject(plumbing.AnyObject, h)
}

// maxLoose bounds the size a loose object's header may claim.
const maxLoose = 1 << 40

// loose reads loose object h from the objects directory: ok is false when
// there is no such file (the object is packed, or in an alternate store,
// which go-git reads). It inflates the header's size and one byte more:
// an object whose data inflates past the size its header gives is refused
// there, where go-git inflated all of it first (a few compressed bytes can
// be gigabytes). The caller holds mu.
func (o *objects) loose(h plumbing.Hash) (typ plumbing.ObjectType, b []byte, ok bool, err error) {
	if o.objectsDir == "" {
		return 0, nil, false, nil
	}
	hex := h.String()
	f, err := os.Open(filepath.Join(o.objectsDir, hex[:2], hex[2:]))
	if err != nil {
		return 0, nil, false, nil
	}
	defer f.Close()
	z, err := zlib.NewReader(bufio.NewReader(f))
	if err != nil {
		return 0, nil, true, fmt.Errorf("not a zlib stream: %v", err)
	}
	defer z.Close()
	// "blob 1234\x00": a type, a space, a decimal size, a NUL.
	var head []byte
	var c [1]byte
	for {
		if _, err := io.ReadFull(z, c[:]); err != nil {
			return 0, nil, true, fmt.Errorf("reading the header: %v", err)
		}
		if c[0] == 0 {
			break
		}
		if len(head) == 32 {
			return 0, nil, true, errors.New("the header has no end")
		}
		head = append(head, c[0])
	}
	name, num, found := strings.Cut(string(head), " ")
	size, perr := strconv.ParseInt(num, 10, 64)
	typ, terr := plumbing.ParseObjectType(name)
	if !found || perr != nil || size < 0 || terr != nil {
		return 0, nil, true, fmt.Errorf("the header %q is not a Git object's", head)
	}
	if size > maxLoose {
		return 0, nil, true, fmt.Errorf("the header claims %d bytes", size)
	}
	buf := bytes.NewBuffer(make([]byte, 0, min(size, 8<<20)))
	if _, err := io.CopyN(buf, z, size); err != nil {
		return 0, nil, true, fmt.Errorf("the data ends before the %d bytes its header gives: %v", size, err)
	}
	if n, _ := z.Read(c[:]); n > 0 {
		return 0, nil, true, fmt.Errorf("the data inflates to more than the %d bytes its header gives", size)
	}
	return typ, buf.Bytes(), true, nil
}

// packsLocked returns the packs, opened on first use. The caller holds
// mu.
func (o *objects) packsLocked() *packs {
	if o.packs == nil {
		o.packs = &packs{}
		if o.objectsDir != "" {
			o.packs = openPacks(o.objectsDir)
		}
	}
	return o.packs
}

func (o *objects) read(t plumbing.ObjectType, h plumbing.Hash, what string) ([]byte, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.readLocked(t, h, what)
}

func (o *objects) objectError(h plumbing.Hash, what string, err error) error {
	if errors.Is(err, ErrClosed) {
		return err
	}
	var oe *ObjectError
	if errors.As(err, &oe) {
		return err
	}
	missing := errors.Is(err, plumbing.ErrObjectNotFound)
	return &ObjectError{Hash: h, What: what, Missing: missing, Partial: missing && o.partial, Err: err}
}

// blobSize returns the size of blob h without reading it when the storage
// allows.
func (o *objects) blobSize(h plumbing.Hash) (int64, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return 0, ErrClosed
	}
	if n, ok := o.packsLocked().size(h); ok {
		return n, nil
	}
	type sizer interface {
		EncodedObjectSize(plumbing.Hash) (int64, error)
	}
	if s, ok := o.st.(sizer); ok {
		n, err := s.EncodedObjectSize(h)
		if err == nil {
			return n, nil
		}
	}
	if _, b, ok, err := o.loose(h); ok {
		if err != nil {
			return 0, &ObjectError{Hash: h, What: "blob", Err: err}
		}
		return int64(len(b)), nil
	}
	obj, err := o.st.EncodedObject(plumbing.BlobObject, h)
	if err != nil {
		return 0, o.objectError(h, "blob", err)
	}
	return obj.Size(), nil
}

// tree returns the entries of tree h sorted by name, submodules left out.
func (o *objects) tree(h plumbing.Hash, what string) ([]*node, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if kids, ok := o.cachedTree(h); ok {
		return kids, nil
	}
	b, err := o.readLocked(plumbing.TreeObject, h, what)
	if err != nil {
		return nil, err
	}
	// One allocation for all names and one for all nodes: a tree of a
	// folder of agents has hundreds of entries, and history commands list
	// one per commit.
	names := string(b)
	nodes := make([]node, 0, len(b)/minTreeEntry)
	err = parseTree(b, func(mode filemode.FileMode, name []byte, off int, hash plumbing.Hash) bool {
		if mode != filemode.Submodule {
			nodes = append(nodes, node{name: names[off : off+len(name)], mode: mode, hash: hash})
		}
		return true
	})
	kids := make([]*node, len(nodes))
	for i := range nodes {
		kids[i] = &nodes[i]
	}
	if err != nil {
		return nil, &ObjectError{Hash: h, What: what, Err: err}
	}
	// Git sorts a directory as if its name ended in "/"; fs wants plain
	// name order.
	sortNodes(kids)
	o.cacheTree(h, kids)
	return kids, nil
}

// cachedTree returns tree h from the cache. The caller holds mu.
func (o *objects) cachedTree(h plumbing.Hash) ([]*node, bool) {
	if kids, ok := o.trees[h]; ok {
		return kids, true
	}
	kids, ok := o.oldTrees[h]
	if ok {
		o.cacheTree(h, kids)
	}
	return kids, ok
}

// cacheTree adds tree h to the cache. The caller holds mu.
func (o *objects) cacheTree(h plumbing.Hash, kids []*node) {
	if o.trees == nil || len(o.trees) >= maxTrees {
		o.oldTrees, o.trees = o.trees, make(map[plumbing.Hash][]*node)
	}
	o.trees[h] = kids
}

// entry returns the mode and hash of the entry name in tree h, or ok false.
// It scans the raw tree without decoding every entry.
func (o *objects) entry(h plumbing.Hash, name string, what string) (mode filemode.FileMode, hash plumbing.Hash, ok bool, err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if kids, cached := o.cachedTree(h); cached {
		if n := findNode(kids, name); n != nil {
			return n.mode, n.hash, true, nil
		}
		return 0, plumbing.ZeroHash, false, nil
	}
	b, err := o.readLocked(plumbing.TreeObject, h, what)
	if err != nil {
		return 0, plumbing.ZeroHash, false, err
	}
	err = parseTree(b, func(m filemode.FileMode, n []byte, _ int, hh plumbing.Hash) bool {
		if string(n) == name {
			mode, hash, ok = m, hh, true
			return false
		}
		return true
	})
	if err != nil {
		return 0, plumbing.ZeroHash, false, &ObjectError{Hash: h, What: what, Err: err}
	}
	return mode, hash, ok, nil
}

// minTreeEntry is the size of the smallest entry of a tree object: a
// one-digit mode, a space, a one-byte name, a NUL and a hash.
const minTreeEntry = 1 + 1 + 1 + 1 + len(plumbing.ZeroHash)

// parseTree calls fn for each entry of a raw tree object until fn returns
// false; off is the offset of name in b. It checks every bound: a corrupt
// tree is an error, never a panic.
func parseTree(b []byte, fn func(mode filemode.FileMode, name []byte, off int, hash plumbing.Hash) bool) error {
	t := treeReader{b: b, size: len(b)}
	for t.next() {
		if !fn(t.mode, t.name, t.off, t.hash) {
			return nil
		}
	}
	return t.err
}

// treeReader reads the entries of a raw tree object one at a time: after
// next reports true, mode, name (at offset off), and hash are the entry's.
// After it reports false, err says why, or is nil at the end.
type treeReader struct {
	b    []byte
	size int
	err  error

	mode filemode.FileMode
	name []byte
	off  int
	hash plumbing.Hash
}

func (t *treeReader) next() bool {
	if t.err != nil || len(t.b) == 0 {
		return false
	}
	b := t.b
	sp := bytes.IndexByte(b, ' ')
	if sp <= 0 || sp > 7 {
		t.err = errors.New("malformed tree entry mode")
		return false
	}
	var m uint32
	for _, c := range b[:sp] {
		if c < '0' || c > '7' {
			t.err = errors.New("malformed tree entry mode")
			return false
		}
		m = m*8 + uint32(c-'0')
	}
	b = b[sp+1:]
	nul := bytes.IndexByte(b, 0)
	if nul < 0 {
		t.err = errors.New("tree entry name not terminated")
		return false
	}
	name, off := b[:nul], t.size-len(b)
	if len(name) == 0 || bytes.IndexByte(name, '/') >= 0 || string(name) == "." || string(name) == ".." {
		t.err = fmt.Errorf("invalid tree entry name %q", name)
		return false
	}
	b = b[nul+1:]
	if len(b) < len(t.hash) {
		t.err = errors.New("tree entry hash truncated")
		return false
	}
	t.mode, t.name, t.off = filemode.FileMode(m), name, off
	copy(t.hash[:], b)
	t.b = b[len(t.hash):]
	return true
}

// Node is what a history walk needs of a commit: its root tree, its
// parents and its committer time.
type Node struct {
	Hash    plumbing.Hash
	Tree    plumbing.Hash
	Parents []plumbing.Hash
	// Time is the committer time in seconds since the Unix epoch; git
	// orders its walk by it.
	Time int64
	// Generation is the commit's generation number (topological level)
	// from the commit-graph file: greater than each of its parents'. 0
	// when the commit-graph does not have the commit.
	Generation uint64
}

// commitNode returns commit h's Node, from the commit-graph file when it has the
// commit, else by decoding the commit.
func (o *objects) commitNode(h plumbing.Hash) (Node, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return Node{}, ErrClosed
	}
	if !o.graphOpened {
		o.graphOpened = true
		if !o.noGraph && o.objectsDir != "" {
			o.graph = openCommitGraph(o.objectsDir)
		}
	}
	if n, ok := o.graphNode(h); ok {
		return n, nil
	}
	c, err := o.commitLocked(h)
	if err != nil {
		return Node{}, err
	}
	return Node{Hash: h, Tree: c.TreeHash, Parents: c.ParentHashes, Time: c.Committer.When.Unix()}, nil
}

// graphNode looks h up in the commit-graph. A commit-graph that go-git
// cannot read (it may panic on a damaged file) is dropped, and commits are
// decoded instead. The caller holds mu.
func (o *objects) graphNode(h plumbing.Hash) (n Node, ok bool) {
	if o.graph == nil {
		return Node{}, false
	}
	defer func() {
		if recover() != nil {
			o.graph = nil
			n, ok = Node{}, false
		}
	}()
	i, err := o.graph.GetIndexByHash(h)
	if err != nil {
		return Node{}, false
	}
	d, err := o.graph.GetCommitDataByIndex(i)
	if err != nil {
		return Node{}, false
	}
	return Node{Hash: h, Tree: d.TreeHash, Parents: d.ParentHashes, Time: d.When.Unix(), Generation: d.Generation}, true
}

func (o *objects) commitLocked(h plumbing.Hash) (*object.Commit, error) {
	b, err := o.readLocked(plumbing.CommitObject, h, "commit")
	if err != nil {
		return nil, err
	}
	mo := &plumbing.MemoryObject{}
	mo.SetType(plumbing.CommitObject)
	mo.Write(b)
	c := &object.Commit{}
	if err := c.Decode(mo); err != nil {
		return nil, &ObjectError{Hash: h, What: "commit", Err: err}
	}
	c.Hash = h
	return c, nil
}

func (o *objects) commit(h plumbing.Hash) (*object.Commit, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.commitLocked(h)
}

// openCommitGraph opens the commit-graph file, or chain of files, of the
// objects directory dir, or returns nil when there is none or it is
// unreadable or fails its checksum (the walk then decodes commits). The
// files are read through a small cache of pages (see pagedReader).
func openCommitGraph(dir string) commitgraph.Index {
	read := func(name string) (commitgraph.ReaderAtCloser, error) {
		name = filepath.Join(dir, "info", name)
		// The file ends with the SHA-1 of what precedes it; a damaged
		// file is ignored rather than trusted.
		if err := checkSum(name); err != nil {
			return nil, err
		}
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		return newPagedReader(f), nil
	}
	if r, err := read("commit-graph"); err == nil {
		g, err := commitgraph.OpenFileIndex(r)
		if err != nil {
			r.Close()
			return nil
		}
		return g
	}
	chain, err := os.Open(filepath.Join(dir, "info", "commit-graphs", "commit-graph-chain"))
	if err != nil {
		return nil
	}
	hashes, err := commitgraph.OpenChainFile(chain)
	chain.Close()
	if err != nil {
		return nil
	}
	var g commitgraph.Index
	for _, h := range hashes {
		r, err := read(filepath.Join("commit-graphs", "graph-"+h+".graph"))
		if err != nil {
			if g != nil {
				g.Close()
			}
			return nil
		}
		parent := g
		if g, err = commitgraph.OpenFileIndexWithParent(r, parent); err != nil {
			r.Close()
			if parent != nil {
				parent.Close()
			}
			return nil
		}
	}
	return g
}

// pagedReader reads a file through a cache of its pages read last: the
// probes of a lookup in a commit-graph file fall in few pages, and a
// ReadAt for each of them made lookups slower than decoding the commit.
// Reading the file into memory, or mapping it, made memory grow with the
// history: a walk touches every commit's row.
type pagedReader struct {
	f     *os.File
	slots [graphPages]struct {
		page int64 // -1 when empty
		n    int
		b    [graphPage]byte
	}
}

const (
	graphPage  = 4096
	graphPages = 64
)

func newPagedReader(f *os.File) *pagedReader {
	r := &pagedReader{f: f}
	for i := range r.slots {
		r.slots[i].page = -1
	}
	return r
}

func (r *pagedReader) ReadAt(b []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("negative offset")
	}
	n := 0
	for n < len(b) {
		page := (off + int64(n)) / graphPage
		// Direct-mapped, with the page number mixed so that the fan-out,
		// read for every lookup, is not pushed out by rows. Unsigned: a
		// far offset (a chunk table may say anything) overflows the
		// product, which as an int64 may come out negative.
		s := &r.slots[(uint64(page)*0x9e3779b1>>7)%graphPages]
		if s.page != page {
			m, err := r.f.ReadAt(s.b[:], page*graphPage)
			if m == 0 {
				s.page = -1
				if err == nil {
					err = io.EOF
				}
				return n, err
			}
			s.page, s.n = page, m
		}
		at := int(off + int64(n) - page*graphPage)
		if at >= s.n {
			return n, io.EOF
		}
		n += copy(b[n:], s.b[at:s.n])
	}
	return n, nil
}

func (r *pagedReader) Close() error { return r.f.Close() }
