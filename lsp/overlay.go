package lsp

import (
	"context"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/charter-dev/charter/load"
)

// overlay is the config root as the editor sees it: the files on disk,
// with the unsaved buffers (root-relative slash paths to their text) in
// place of theirs, and new buffers added. Once ctx is done every call
// fails, so that an evaluation a newer edit made stale stops reading.
type overlay struct {
	ctx   context.Context
	base  fs.FS
	files map[string]string
}

func (o *overlay) alive(op, name string) error {
	if err := o.ctx.Err(); err != nil {
		return &fs.PathError{Op: op, Path: name, Err: err}
	}
	return nil
}

// Open implements fs.FS.
func (o *overlay) Open(name string) (fs.File, error) {
	if err := o.alive("open", name); err != nil {
		return nil, err
	}
	if src, ok := o.files[name]; ok {
		return &memFile{info: memInfo{name: path.Base(name), size: int64(len(src))}, r: strings.NewReader(src)}, nil
	}
	if o.hasDir(name) {
		if _, err := fs.Stat(o.base, name); err != nil {
			return &memDir{info: memInfo{name: path.Base(name), dir: true}}, nil
		}
	}
	return o.base.Open(name)
}

// Stat implements fs.StatFS.
func (o *overlay) Stat(name string) (fs.FileInfo, error) {
	if err := o.alive("stat", name); err != nil {
		return nil, err
	}
	if src, ok := o.files[name]; ok {
		return memInfo{name: path.Base(name), size: int64(len(src))}, nil
	}
	fi, err := fs.Stat(o.base, name)
	if err != nil && o.hasDir(name) {
		return memInfo{name: path.Base(name), dir: true}, nil
	}
	return fi, err
}

// ReadLink passes the base's links through (load reports them).
func (o *overlay) ReadLink(name string) (string, error) {
	if lr, ok := o.base.(load.LinkReader); ok {
		return lr.ReadLink(name)
	}
	return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrInvalid}
}

// ReadDir implements fs.ReadDirFS: the base's entries, with the buffers'
// files and folders that are not on disk yet.
func (o *overlay) ReadDir(name string) ([]fs.DirEntry, error) {
	if err := o.alive("readdir", name); err != nil {
		return nil, err
	}
	entries, err := fs.ReadDir(o.base, name)
	if err != nil && !o.hasDir(name) {
		return nil, err
	}
	seen := map[string]bool{}
	for _, e := range entries {
		seen[e.Name()] = true
	}
	for p, src := range o.files {
		rest, ok := strings.CutPrefix(p, dirPrefix(name))
		if !ok {
			continue
		}
		child, _, isDir := strings.Cut(rest, "/")
		if seen[child] {
			if !isDir {
				// A buffer over a file on disk: its size is the buffer's.
				i := slices.IndexFunc(entries, func(e fs.DirEntry) bool { return e.Name() == child })
				entries[i] = fs.FileInfoToDirEntry(memInfo{name: child, size: int64(len(src))})
			}
			continue
		}
		seen[child] = true
		entries = append(entries, fs.FileInfoToDirEntry(memInfo{name: child, size: int64(len(src)), dir: isDir}))
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, nil
}

// hasDir reports whether a buffer lies below folder name.
func (o *overlay) hasDir(name string) bool {
	for p := range o.files {
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

type memDir struct{ info memInfo }

func (d *memDir) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *memDir) Read([]byte) (int, error)   { return 0, io.EOF }
func (d *memDir) Close() error               { return nil }
