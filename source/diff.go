package source

import (
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
// zero hash stands for an empty tree). It reads only the subtrees whose
// hashes differ, so a change to one file of a large tree costs the trees
// on its path. skip, when not nil, leaves out the files and folders (with
// all in them) below the trees' roots for which it returns true, by name.
// Changes come in lexical order of their paths' elements, as fs.WalkDir
// visits them.
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

// diff adds the changes between trees a and b, both at dir.
func (d *differ) diff(dir string, a, b plumbing.Hash) error {
	if a == b {
		return nil
	}
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
