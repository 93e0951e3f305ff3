package source

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// node is one entry of a Git tree or of the index. A directory is either
// backed by a tree object (hash set, mem false) or built in memory from
// index entries (mem true, kids set).
type node struct {
	name string
	mode filemode.FileMode
	hash plumbing.Hash
	mem  bool
	kids []*node
}

func (n *node) isDir() bool     { return n.mode == filemode.Dir }
func (n *node) isSymlink() bool { return n.mode == filemode.Symlink }

func sortNodes(ns []*node) {
	slices.SortFunc(ns, func(a, b *node) int { return strings.Compare(a.name, b.name) })
}

func findNode(ns []*node, name string) *node {
	i, ok := slices.BinarySearchFunc(ns, name, func(n *node, name string) int { return strings.Compare(n.name, name) })
	if !ok {
		return nil
	}
	return ns[i]
}

// treeFS is a read-only fs.FS over a Git tree or the index. Blobs are read
// lazily from the object store, so it stays valid only while its Repo is
// open.
type treeFS struct {
	o     *objects
	root  *node
	mtime time.Time
	// where names the tree in error messages, e.g. "commit abc1234".
	where string
}

var (
	_ fs.StatFS     = (*treeFS)(nil)
	_ fs.ReadDirFS  = (*treeFS)(nil)
	_ fs.ReadFileFS = (*treeFS)(nil)
	_ fs.ReadLinkFS = (*treeFS)(nil)
)

func (f *treeFS) list(dir *node, name string) ([]*node, error) {
	if dir.mem {
		return dir.kids, nil
	}
	return f.o.tree(dir.hash, "tree of "+name+" at "+f.where)
}

// lookup finds name. A symlink met on the way, or at the end unless last
// is set, fails with *SymlinkError.
func (f *treeFS) lookup(op, name string, last bool) (*node, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	n := f.root
	if name == "." {
		return n, nil
	}
	walked := "."
	rest := name
	for rest != "" {
		comp := rest
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			comp, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		if n.isSymlink() {
			return nil, f.symlinkError(walked, n)
		}
		if !n.isDir() {
			return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
		}
		kids, err := f.list(n, walked)
		if err != nil {
			return nil, &fs.PathError{Op: op, Path: name, Err: err}
		}
		n = findNode(kids, comp)
		if n == nil {
			return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
		}
		if walked == "." {
			walked = comp
		} else {
			walked += "/" + comp
		}
	}
	if n.isSymlink() && !last {
		return nil, f.symlinkError(walked, n)
	}
	return n, nil
}

func (f *treeFS) symlinkError(p string, n *node) error {
	b, err := f.o.read(plumbing.BlobObject, n.hash, "symlink "+p+" at "+f.where)
	if err != nil {
		return &fs.PathError{Op: "readlink", Path: p, Err: err}
	}
	return &SymlinkError{Path: p, Target: string(b)}
}

// Open implements fs.FS. Files are read whole on open.
func (f *treeFS) Open(name string) (fs.File, error) {
	n, err := f.lookup("open", name, false)
	if err != nil {
		return nil, err
	}
	info := f.info(name, n)
	if n.isDir() {
		kids, err := f.list(n, name)
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return &treeDir{fsys: f, path: name, info: info, kids: kids}, nil
	}
	b, err := f.o.read(plumbing.BlobObject, n.hash, name+" at "+f.where)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	info.size = int64(len(b))
	info.sized = true
	return &treeFile{info: info, r: bytes.NewReader(b)}, nil
}

// ReadFile implements fs.ReadFileFS.
func (f *treeFS) ReadFile(name string) ([]byte, error) {
	n, err := f.lookup("read", name, false)
	if err != nil {
		return nil, err
	}
	if n.isDir() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errors.New("is a directory")}
	}
	b, err := f.o.read(plumbing.BlobObject, n.hash, name+" at "+f.where)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	return b, nil
}

// ReadDir implements fs.ReadDirFS. Submodules are left out; symlinks are
// listed with fs.ModeSymlink.
func (f *treeFS) ReadDir(name string) ([]fs.DirEntry, error) {
	n, err := f.lookup("readdir", name, false)
	if err != nil {
		return nil, err
	}
	if !n.isDir() {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.New("not a directory")}
	}
	kids, err := f.list(n, name)
	if err != nil {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: err}
	}
	return f.entries(name, kids), nil
}

func (f *treeFS) entries(dir string, kids []*node) []fs.DirEntry {
	out := make([]fs.DirEntry, len(kids))
	infos := make([]treeInfo, len(kids))
	for i, k := range kids {
		infos[i] = treeInfo{fsys: f, name: k.name, n: k}
		out[i] = &infos[i]
	}
	return out
}

// Stat implements fs.StatFS.
func (f *treeFS) Stat(name string) (fs.FileInfo, error) {
	return f.stat("stat", name, false)
}

// Lstat implements fs.ReadLinkFS.
func (f *treeFS) Lstat(name string) (fs.FileInfo, error) {
	return f.stat("lstat", name, true)
}

func (f *treeFS) stat(op, name string, last bool) (fs.FileInfo, error) {
	n, err := f.lookup(op, name, last)
	if err != nil {
		return nil, err
	}
	info := f.info(name, n)
	if err := info.fill(); err != nil {
		return nil, &fs.PathError{Op: op, Path: name, Err: err}
	}
	return info, nil
}

// ReadLink implements fs.ReadLinkFS.
func (f *treeFS) ReadLink(name string) (string, error) {
	n, err := f.lookup("readlink", name, true)
	if err != nil {
		return "", err
	}
	if !n.isSymlink() {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrInvalid}
	}
	b, err := f.o.read(plumbing.BlobObject, n.hash, "symlink "+name+" at "+f.where)
	if err != nil {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: err}
	}
	return string(b), nil
}

func (f *treeFS) info(p string, n *node) *treeInfo {
	name := n.name
	if p == "." {
		name = "."
	}
	return &treeInfo{fsys: f, name: name, n: n}
}

// treeInfo is both the fs.FileInfo and the fs.DirEntry of a node. The size
// of a blob is looked up on first use.
type treeInfo struct {
	fsys  *treeFS
	name  string
	n     *node
	size  int64
	sized bool
}

func (i *treeInfo) fill() error {
	if i.sized || i.n.isDir() {
		return nil
	}
	s, err := i.fsys.o.blobSize(i.n.hash)
	if err != nil {
		return err
	}
	i.size, i.sized = s, true
	return nil
}

func (i *treeInfo) Name() string { return i.name }
func (i *treeInfo) Size() int64 {
	_ = i.fill()
	return i.size
}

func (i *treeInfo) Mode() fs.FileMode { return fileMode(i.n.mode) }

// fileMode converts a Git file mode to the mode the file systems of this
// package report.
func fileMode(m filemode.FileMode) fs.FileMode {
	switch m {
	case filemode.Dir:
		return fs.ModeDir | 0o755
	case filemode.Symlink:
		return fs.ModeSymlink | 0o777
	case filemode.Executable:
		return 0o755
	default:
		return 0o644
	}
}

func (i *treeInfo) ModTime() time.Time { return i.fsys.mtime }
func (i *treeInfo) IsDir() bool        { return i.n.isDir() }

// Sys returns the Git object hash (plumbing.Hash) of the blob or tree, for
// caches keyed by content.
func (i *treeInfo) Sys() any { return i.n.hash }

func (i *treeInfo) Type() fs.FileMode { return i.Mode().Type() }
func (i *treeInfo) Info() (fs.FileInfo, error) {
	if err := i.fill(); err != nil {
		return nil, err
	}
	return i, nil
}
func (i *treeInfo) String() string { return fs.FormatFileInfo(i) }

type treeFile struct {
	info *treeInfo
	r    *bytes.Reader
}

func (f *treeFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *treeFile) Read(b []byte) (int, error) { return f.r.Read(b) }
func (f *treeFile) ReadAt(b []byte, off int64) (int, error) {
	return f.r.ReadAt(b, off)
}
func (f *treeFile) Seek(off int64, whence int) (int64, error) { return f.r.Seek(off, whence) }
func (f *treeFile) Close() error                              { return nil }

type treeDir struct {
	fsys *treeFS
	path string
	info *treeInfo
	kids []*node
	off  int
}

func (d *treeDir) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *treeDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.path, Err: errors.New("is a directory")}
}
func (d *treeDir) Close() error { return nil }

// ReadDir implements fs.ReadDirFile.
func (d *treeDir) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.kids[d.off:]
	if n > 0 {
		if len(rest) == 0 {
			return nil, io.EOF
		}
		rest = rest[:min(n, len(rest))]
	}
	d.off += len(rest)
	return d.fsys.entries(d.path, rest), nil
}
