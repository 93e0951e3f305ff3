package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"time"
)

// Overlay is a config root with files laid over it: unsaved editor
// buffers in place of the files on disk, or the files an import is about
// to write, before anything is written. Files maps root-relative slash
// paths to contents; a folder that only Files has exists too. Base nil is
// an empty root. When Ctx is set and done, every call fails, so that an
// evaluation a newer edit made stale stops reading.
type Overlay struct {
	Ctx   context.Context
	Base  fs.FS
	Files map[string]string
	// Large are files over the base whose content is not held (too large
	// to read), by size: Stat and ReadDir give the size, Open fails.
	Large map[string]int64
}

var (
	_ fs.ReadDirFS = (*Overlay)(nil)
	_ fs.StatFS    = (*Overlay)(nil)
)

func (o *Overlay) alive(op, name string) error {
	if o.Ctx == nil {
		return nil
	}
	if err := o.Ctx.Err(); err != nil {
		return &fs.PathError{Op: op, Path: name, Err: err}
	}
	return nil
}

// Open implements fs.FS.
func (o *Overlay) Open(name string) (fs.File, error) {
	if err := o.alive("open", name); err != nil {
		return nil, err
	}
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if src, ok := o.Files[name]; ok {
		return &memFile{info: memInfo{name: path.Base(name), size: int64(len(src))}, r: strings.NewReader(src)}, nil
	}
	if n, ok := o.Large[name]; ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fmt.Errorf("%d bytes, not held", n)}
	}
	if o.hasDir(name) {
		// A folder Files adds to: its listing is the overlay's.
		info, err := o.Stat(name)
		if err != nil {
			return nil, err
		}
		if info.IsDir() {
			return &memDir{info: info, o: o, name: name}, nil
		}
	}
	if o.Base == nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return o.Base.Open(name)
}

// Stat implements fs.StatFS.
func (o *Overlay) Stat(name string) (fs.FileInfo, error) {
	if err := o.alive("stat", name); err != nil {
		return nil, err
	}
	if src, ok := o.Files[name]; ok {
		return memInfo{name: path.Base(name), size: int64(len(src))}, nil
	}
	if n, ok := o.Large[name]; ok {
		return memInfo{name: path.Base(name), size: n}, nil
	}
	if o.Base != nil {
		fi, err := fs.Stat(o.Base, name)
		if err == nil || !o.hasDir(name) {
			return fi, err
		}
	}
	if o.hasDir(name) {
		return memInfo{name: path.Base(name), dir: true}, nil
	}
	return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
}

// ReadLink passes the base's links through (the loader reports them).
func (o *Overlay) ReadLink(name string) (string, error) {
	if lr, ok := o.Base.(interface {
		ReadLink(name string) (string, error)
	}); ok {
		return lr.ReadLink(name)
	}
	return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrInvalid}
}

// ReadDir implements fs.ReadDirFS: the base's entries, with the files and
// folders only Files has.
func (o *Overlay) ReadDir(name string) ([]fs.DirEntry, error) {
	if err := o.alive("readdir", name); err != nil {
		return nil, err
	}
	var entries []fs.DirEntry
	if o.Base != nil {
		es, err := fs.ReadDir(o.Base, name)
		if err != nil && !o.hasDir(name) {
			return nil, err
		}
		entries = es
	} else if name != "." && !o.hasDir(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	seen := map[string]bool{}
	for _, e := range entries {
		seen[e.Name()] = true
	}
	sizes := make(map[string]int64, len(o.Files)+len(o.Large))
	for p, src := range o.Files {
		sizes[p] = int64(len(src))
	}
	maps.Copy(sizes, o.Large)
	for p, size := range sizes {
		rest, ok := strings.CutPrefix(p, dirPrefix(name))
		if !ok {
			continue
		}
		child, _, isDir := strings.Cut(rest, "/")
		if seen[child] {
			if !isDir {
				// A file over one in the base: its size is the new one's.
				i := slices.IndexFunc(entries, func(e fs.DirEntry) bool { return e.Name() == child })
				entries[i] = fs.FileInfoToDirEntry(memInfo{name: child, size: size})
			}
			continue
		}
		seen[child] = true
		info := memInfo{name: child, dir: isDir}
		if !isDir {
			info.size = size
		}
		entries = append(entries, fs.FileInfoToDirEntry(info))
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, nil
}

// hasDir reports whether a file of Files lies below folder name.
func (o *Overlay) hasDir(name string) bool {
	if name == "." {
		return true
	}
	for p := range o.Files {
		if strings.HasPrefix(p, dirPrefix(name)) {
			return true
		}
	}
	for p := range o.Large {
		if strings.HasPrefix(p, dirPrefix(name)) {
			return true
		}
	}
	return false
}

func dirPrefix(name string) string {
	if name == "." {
		return ""
	}
	return name + "/"
}

type memInfo struct {
	name string
	size int64
	dir  bool
}

func (m memInfo) Name() string { return m.name }
func (m memInfo) Size() int64  { return m.size }
func (m memInfo) Mode() fs.FileMode {
	if m.dir {
		return fs.ModeDir | 0o755
	}
	return 0o644
}
func (m memInfo) ModTime() time.Time { return time.Time{} }
func (m memInfo) IsDir() bool        { return m.dir }
func (m memInfo) Sys() any           { return nil }

type memFile struct {
	info memInfo
	r    *strings.Reader
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Read(b []byte) (int, error) { return f.r.Read(b) }
func (f *memFile) Close() error               { return nil }

// memDir is an open folder of an Overlay; ReadDir lists it as the
// Overlay's ReadDir does.
type memDir struct {
	info    fs.FileInfo
	o       *Overlay
	name    string
	entries []fs.DirEntry
	read    bool
}

func (d *memDir) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *memDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.name, Err: errors.New("is a directory")}
}
func (d *memDir) Close() error { return nil }

// ReadDir implements fs.ReadDirFile.
func (d *memDir) ReadDir(n int) ([]fs.DirEntry, error) {
	if !d.read {
		es, err := d.o.ReadDir(d.name)
		if err != nil {
			return nil, err
		}
		d.entries, d.read = es, true
	}
	if n <= 0 {
		es := d.entries
		d.entries = nil
		return es, nil
	}
	if len(d.entries) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(d.entries))
	es := d.entries[:n]
	d.entries = d.entries[n:]
	return es, nil
}
