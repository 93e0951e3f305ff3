package source

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
)

// Dir returns the working-tree directory root as an fs.FS whose paths are
// relative to root.
//
// Unlike os.DirFS it never follows a symbolic link: ReadDir lists a link
// with fs.ModeSymlink, ReadLink and Lstat describe it, and Open, Stat and
// ReadFile of the link (or of any path through it) fail with a
// *SymlinkError. Reads are confined to root by an os.Root, so no path can
// leave it. Devices, sockets and named pipes fail with ErrNotRegular
// instead of blocking.
//
// The result implements fs.StatFS, fs.ReadDirFS, fs.ReadFileFS and
// fs.ReadLinkFS, and io.Closer to release the directory handle early; it is
// safe for concurrent use.
func Dir(root string) (fs.FS, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("cannot open the config root %s: %w", root, err)
	}
	return &dirFS{root: r}, nil
}

type dirFS struct {
	root *os.Root
}

var (
	_ fs.StatFS     = (*dirFS)(nil)
	_ fs.ReadDirFS  = (*dirFS)(nil)
	_ fs.ReadFileFS = (*dirFS)(nil)
	_ fs.ReadLinkFS = (*dirFS)(nil)
)

// Close releases the directory handle.
func (d *dirFS) Close() error { return d.root.Close() }

// lstat checks that no component of name is a symlink (the last one is
// allowed to be when last is true) and returns the Lstat of name.
func (d *dirFS) lstat(op, name string, last bool) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	if name == "." {
		fi, err := d.root.Lstat(".")
		return fi, rewrap(op, name, err)
	}
	for i := 0; ; {
		j := strings.IndexByte(name[i:], '/')
		prefix := name
		if j >= 0 {
			prefix = name[:i+j]
		}
		fi, err := d.root.Lstat(prefix)
		if err != nil {
			return nil, rewrap(op, name, err)
		}
		if j < 0 {
			if fi.Mode()&fs.ModeSymlink != 0 && !last {
				target, _ := d.root.Readlink(prefix)
				return nil, &SymlinkError{Path: prefix, Target: target}
			}
			return fi, nil
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, _ := d.root.Readlink(prefix)
			return nil, &SymlinkError{Path: prefix, Target: target}
		}
		if !fi.IsDir() {
			return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
		}
		i += j + 1
	}
}

// rewrap gives err the operation and path the caller used.
func rewrap(op, name string, err error) error {
	if err == nil {
		return nil
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &fs.PathError{Op: op, Path: name, Err: pe.Err}
	}
	return &fs.PathError{Op: op, Path: name, Err: err}
}

func regularOrDir(op, name string, fi fs.FileInfo) error {
	if fi.Mode().IsRegular() || fi.IsDir() {
		return nil
	}
	return &fs.PathError{Op: op, Path: name, Err: ErrNotRegular}
}

// Open implements fs.FS.
func (d *dirFS) Open(name string) (fs.File, error) {
	fi, err := d.lstat("open", name, false)
	if err != nil {
		return nil, err
	}
	if err := regularOrDir("open", name, fi); err != nil {
		return nil, err
	}
	f, err := d.root.Open(name)
	if err != nil {
		return nil, rewrap("open", name, err)
	}
	return f, nil
}

// Stat implements fs.StatFS.
func (d *dirFS) Stat(name string) (fs.FileInfo, error) {
	return d.lstat("stat", name, false)
}

// Lstat implements fs.ReadLinkFS.
func (d *dirFS) Lstat(name string) (fs.FileInfo, error) {
	return d.lstat("lstat", name, true)
}

// ReadLink implements fs.ReadLinkFS.
func (d *dirFS) ReadLink(name string) (string, error) {
	fi, err := d.lstat("readlink", name, true)
	if err != nil {
		return "", err
	}
	if fi.Mode()&fs.ModeSymlink == 0 {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrInvalid}
	}
	t, err := d.root.Readlink(name)
	return t, rewrap("readlink", name, err)
}

// ReadDir implements fs.ReadDirFS. Entries are sorted by name; symlinks are
// listed with fs.ModeSymlink and not followed.
func (d *dirFS) ReadDir(name string) ([]fs.DirEntry, error) {
	fi, err := d.lstat("readdir", name, false)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.New("not a directory")}
	}
	f, err := d.root.Open(name)
	if err != nil {
		return nil, rewrap("readdir", name, err)
	}
	defer f.Close()
	list, err := f.ReadDir(-1)
	slices.SortFunc(list, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return list, rewrap("readdir", name, err)
}

// ReadFile implements fs.ReadFileFS.
func (d *dirFS) ReadFile(name string) ([]byte, error) {
	fi, err := d.lstat("read", name, false)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		if fi.IsDir() {
			return nil, &fs.PathError{Op: "read", Path: name, Err: errors.New("is a directory")}
		}
		return nil, &fs.PathError{Op: "read", Path: name, Err: ErrNotRegular}
	}
	b, err := d.root.ReadFile(name)
	return b, rewrap("read", name, err)
}
