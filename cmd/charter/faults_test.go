package main

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/artifact/bundlefile"
	"github.com/charter-dev/charter/internal/config/revision"
)

// installFaults makes the file system fail as chmod would make it fail
// for a user other than root, from CHARTER_FAULTS, a comma-separated list
// of
//
//	unreadable:PATH   opening or listing PATH (relative to the config
//	                  root) fails with permission denied
//	readonly:DIR      writing a bundle into DIR fails with permission
//	                  denied, before anything is written
//
// The scripts set it; CI runs as root, where chmod 000 and 0555 change
// nothing.
func installFaults(spec string) {
	if spec == "" {
		return
	}
	unreadable := map[string]bool{}
	var readonly []string
	for _, f := range strings.Split(spec, ",") {
		kind, arg, _ := strings.Cut(f, ":")
		switch kind {
		case "unreadable":
			unreadable[path.Clean(arg)] = true
		case "readonly":
			readonly = append(readonly, filepath.Clean(arg))
		default:
			fmt.Fprintf(os.Stderr, "CHARTER_FAULTS: unknown fault %q\n", f)
			os.Exit(3)
		}
	}
	if len(unreadable) > 0 {
		open := revision.OpenDir
		revision.OpenDir = func(dir string) (fs.FS, error) {
			fsys, err := open(dir)
			if err != nil {
				return nil, err
			}
			return faultFS{fsys, unreadable}, nil
		}
	}
	if len(readonly) > 0 {
		refuse := func(dir string) error {
			parent := filepath.Dir(filepath.Clean(dir))
			for _, ro := range readonly {
				if parent == ro {
					return &fs.PathError{Op: "mkdirtemp", Path: filepath.Join(parent, "."+filepath.Base(dir)+".tmp-*"), Err: fs.ErrPermission}
				}
			}
			return nil
		}
		write, over := writeDir, writeOver
		writeDir = func(dir string, t bundlefile.Tree, known []*bundle.State) (*bundle.State, error) {
			if err := refuse(dir); err != nil {
				return nil, err
			}
			return write(dir, t, known)
		}
		writeOver = func(dir string, files []bundlefile.File, data bundlefile.Tree, known []*bundle.State) (*bundle.State, error) {
			if err := refuse(dir); err != nil {
				return nil, err
			}
			return over(dir, files, data, known)
		}
	}
}

// faultFS fails with permission denied on the paths in bad, as an
// unreadable file or folder does.
type faultFS struct {
	fs.FS
	bad map[string]bool
}

func (f faultFS) fault(op, name string) error {
	if f.bad[path.Clean(name)] {
		return &fs.PathError{Op: op, Path: name, Err: fs.ErrPermission}
	}
	return nil
}

func (f faultFS) Open(name string) (fs.File, error) {
	if err := f.fault("open", name); err != nil {
		return nil, err
	}
	return f.FS.Open(name)
}

func (f faultFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if err := f.fault("open", name); err != nil {
		return nil, err
	}
	return fs.ReadDir(f.FS, name)
}

func (f faultFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(f.FS, name) }
