package source

import (
	"bytes"
	"cmp"
	"errors"
	"io/fs"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// TreeFile is a file in a tree: a blob or a symbolic link. Submodules are
// left out, as in the file systems this package makes.
type TreeFile struct {
	Mode filemode.FileMode
	Hash plumbing.Hash
}

// Type returns the file's type as this package's file systems report it
// (fs.FileMode.Type): 0 for a regular file, fs.ModeSymlink for a link.
func (f TreeFile) Type() fs.FileMode { return fileMode(f.Mode).Type() }

// TreeChange is a file that differs between two trees, by its path
// relative to them, slash-separated. From is the file in the first tree,
// To in the second; either is zero where the file is not there.
type TreeChange struct {
	Path     string
	From, To TreeFile
}

// DiffTrees returns the files that differ between trees from and to (the
// zero hash stands for an empty tree), in no particular order. It reads
// only the subtrees whose hashes differ, so a change to one file of a
// large tree costs the trees on its path, and it compares their entries
// as Git stores them, decoding only those that differ. skip, when not nil,
// leaves out the files and folders (with all in them) below the trees'
// roots for which it returns true, by name.
func (r *Repo) DiffTrees(from, to plumbing.Hash, skip func(name string, dir bool) bool) ([]TreeChange, error) {
	d := differ{o: r.o, skip: skip}
	if err := d.diff(".", from, to); err != nil {
		return nil, err
	}
	return d.out, nil
}

type differ struct {
	o    *objects
	skip func(name string, dir bool) bool
	out  []TreeChange
}

// diff adds the changes between trees a and b, both at dir, merging their
// entries in Git's order. A tree out of that order (Git never writes one)
// is compared again by diffSorted.
func (d *differ) diff(dir string, a, b plumbing.Hash) error {
	if a == b {
		return nil
	}
	ra, err := d.raw(dir, a)
	if err != nil {
		return err
	}
	rb, err := d.raw(dir, b)
	if err != nil {
		return err
	}
	start := len(d.out)
	x, y := treeReader{b: ra, size: len(ra)}, treeReader{b: rb, size: len(rb)}
	var lastX, lastY lastEntry
	hasX, hasY := nextEntry(&x, &lastX), nextEntry(&y, &lastY)
	for hasX || hasY {
		c := 0
		switch {
		case !hasY:
			c = -1
		case !hasX:
			c = 1
		default:
			c = gitCompare(x.name, x.mode == filemode.Dir, y.name, y.mode == filemode.Dir)
		}
		var err error
		switch {
		case c < 0:
			err = d.rawEntry(dir, &x, nil)
			hasX = nextEntry(&x, &lastX)
		case c > 0:
			err = d.rawEntry(dir, nil, &y)
			hasY = nextEntry(&y, &lastY)
		default:
			if x.mode != y.mode || x.hash != y.hash {
				err = d.rawEntry(dir, &x, &y)
			}
			hasX, hasY = nextEntry(&x, &lastX), nextEntry(&y, &lastY)
		}
		if err != nil {
			return err
		}
	}
	for _, t := range []*treeReader{&x, &y} {
		switch {
		case t.err == errUnsorted:
			d.out = d.out[:start]
			return d.diffSorted(dir, a, b)
		case t.err != nil:
			h := a
			if t == &y {
				h = b
			}
			return &ObjectError{Hash: h, What: "tree of " + dir, Err: t.err}
		}
	}
	return nil
}

// errUnsorted says a tree's entries are not in Git's order.
var errUnsorted = errors.New("tree entries out of order")

// nextEntry moves t to its next entry other than a submodule (which this
// package's file systems leave out). last holds the entry before, to check
// the order.
func nextEntry(t *treeReader, last *lastEntry) bool {
	for t.next() {
		if t.mode == filemode.Submodule {
			continue
		}
		dir := t.mode == filemode.Dir
		if last.name != nil && gitCompare(last.name, last.dir, t.name, dir) >= 0 {
			t.err = errUnsorted
			return false
		}
		last.name, last.dir = t.name, dir
		return true
	}
	return false
}

// lastEntry is the entry a treeReader read last.
type lastEntry struct {
	name []byte
	dir  bool
}

// gitCompare compares two entries' names in the order of a Git tree: as if
// a folder's name ended in a slash.
func gitCompare(a []byte, aDir bool, b []byte, bDir bool) int {
	n := min(len(a), len(b))
	if c := bytes.Compare(a[:n], b[:n]); c != 0 {
		return c
	}
	next := func(name []byte, dir bool) byte {
		switch {
		case len(name) > n:
			return name[n]
		case dir:
			return '/'
		}
		return 0
	}
	return cmp.Compare(next(a, aDir), next(b, bDir))
}

// raw returns the content of tree h at dir (none for the zero hash).
func (d *differ) raw(dir string, h plumbing.Hash) ([]byte, error) {
	if h.IsZero() {
		return nil, nil
	}
	return d.o.read(plumbing.TreeObject, h, "tree of "+dir)
}

// rawEntry adds the changes between the current entries of x and y, which
// have the same name and are both folders or both not (either nil where
// absent).
func (d *differ) rawEntry(dir string, x, y *treeReader) error {
	t := x
	if t == nil {
		t = y
	}
	name := string(t.name)
	if d.skip != nil && d.skip(name, t.mode == filemode.Dir) {
		return nil
	}
	var xn, yn *node
	if x != nil {
		xn = &node{name: name, mode: x.mode, hash: x.hash}
	}
	if y != nil {
		yn = &node{name: name, mode: y.mode, hash: y.hash}
	}
	return d.entry(dir, xn, yn)
}

// diffSorted is diff for trees that are not in Git's order: it decodes
// and sorts them whole.
func (d *differ) diffSorted(dir string, a, b plumbing.Hash) error {
	as, err := d.list(dir, a)
	if err != nil {
		return err
	}
	bs, err := d.list(dir, b)
	if err != nil {
		return err
	}
	for len(as) > 0 || len(bs) > 0 {
		var x, y *node
		switch {
		case len(bs) == 0 || len(as) > 0 && as[0].name < bs[0].name:
			x, as = as[0], as[1:]
		case len(as) == 0 || bs[0].name < as[0].name:
			y, bs = bs[0], bs[1:]
		default:
			x, y, as, bs = as[0], bs[0], as[1:], bs[1:]
		}
		if err := d.entry(dir, x, y); err != nil {
			return err
		}
	}
	return nil
}

// entry adds the changes between x and y, entries of the same name (either
// nil where absent).
func (d *differ) entry(dir string, x, y *node) error {
	n := x
	if n == nil {
		n = y
	}
	p := n.name
	if dir != "." {
		p = dir + "/" + n.name
	}
	var xd, yd plumbing.Hash // the trees below, when x or y is a folder
	var xf, yf TreeFile
	if x != nil {
		if x.isDir() {
			xd = x.hash
		} else {
			xf = TreeFile{x.mode, x.hash}
		}
	}
	if y != nil {
		if y.isDir() {
			yd = y.hash
		} else {
			yf = TreeFile{y.mode, y.hash}
		}
	}
	if xf != yf {
		d.out = append(d.out, TreeChange{Path: p, From: xf, To: yf})
	}
	return d.diff(p, xd, yd)
}

// list returns the entries of tree h at dir (none for the zero hash),
// without those skip leaves out.
func (d *differ) list(dir string, h plumbing.Hash) ([]*node, error) {
	if h.IsZero() {
		return nil, nil
	}
	kids, err := d.o.tree(h, "tree of "+dir)
	if err != nil || d.skip == nil {
		return kids, err
	}
	var out []*node
	for i, k := range kids {
		if d.skip(k.name, k.isDir()) {
			if out == nil {
				out = append(make([]*node, 0, len(kids)), kids[:i]...)
			}
			continue
		}
		if out != nil {
			out = append(out, k)
		}
	}
	if out == nil {
		return kids, nil
	}
	return out, nil
}
