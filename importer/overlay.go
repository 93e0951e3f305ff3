package importer

import (
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"
)

// overlay is a config root with new files laid over it: what the root
// will hold once the import is written, before anything is.
type overlay struct {
	base  fs.FS // nil: an empty root
	files map[string][]byte
}

var (
	_ fs.ReadDirFS = overlay{}
	_ fs.StatFS    = overlay{}
)

func (o overlay) isDir(name string) bool {
	if name == "." {
		return true
	}
	for p := range o.files {
		if strings.HasPrefix(p, name+"/") {
			return true
		}
	}
	return false
}

func (o overlay) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if b, ok := o.files[name]; ok {
		return &memFile{info: memInfo{name: path.Base(name), size: int64(len(b))}, r: strings.NewReader(string(b))}, nil
	}
	if o.base != nil {
		f, err := o.base.Open(name)
		if err == nil || !o.isDir(name) {
			return f, err
		}
	}
	if o.isDir(name) {
		return &memFile{info: memInfo{name: path.Base(name), dir: true}, r: strings.NewReader("")}, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

func (o overlay) Stat(name string) (fs.FileInfo, error) {
	if b, ok := o.files[name]; ok {
		return memInfo{name: path.Base(name), size: int64(len(b))}, nil
	}
	if o.base != nil {
		fi, err := fs.Stat(o.base, name)
		if err == nil || !o.isDir(name) {
			return fi, err
		}
	}
	if o.isDir(name) {
		return memInfo{name: path.Base(name), dir: true}, nil
	}
	return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
}

func (o overlay) ReadDir(name string) ([]fs.DirEntry, error) {
	var entries []fs.DirEntry
	if o.base != nil {
		es, err := fs.ReadDir(o.base, name)
		if err != nil && !o.isDir(name) {
			return nil, err
		}
		entries = es
	}
	seen := map[string]bool{}
	for _, e := range entries {
		seen[e.Name()] = true
	}
	prefix := name + "/"
	if name == "." {
		prefix = ""
	}
	var added []fs.DirEntry
	for p, b := range o.files {
		rest, ok := strings.CutPrefix(p, prefix)
		if !ok {
			continue
		}
		first, _, sub := strings.Cut(rest, "/")
		if seen[first] {
			// A new file over an old one keeps the entry; Open gives
			// the new content.
			continue
		}
		seen[first] = true
		added = append(added, fs.FileInfoToDirEntry(memInfo{name: first, size: int64(len(b)), dir: sub}))
	}
	entries = append(entries, added...)
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, nil
}

// ReadLink lets the loader say where a link of the base points.
func (o overlay) ReadLink(name string) (string, error) {
	if lr, ok := o.base.(fs.ReadLinkFS); ok {
		return lr.ReadLink(name)
	}
	return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrInvalid}
}

type memInfo struct {
	name string
	size int64
	dir  bool
}

func (i memInfo) Name() string { return i.name }
func (i memInfo) Size() int64  { return i.size }
func (i memInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o755
	}
	return 0o644
}
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return i.dir }
func (i memInfo) Sys() any           { return nil }

type memFile struct {
	info memInfo
	r    io.Reader
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Read(b []byte) (int, error) { return f.r.Read(b) }
func (f *memFile) Close() error               { return nil }
