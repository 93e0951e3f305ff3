package source

import (
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// SymlinkError reports a symbolic link that was not followed. Every file
// system this package returns lists symlinks (fs.ReadDir gives them
// fs.ModeSymlink, fs.ReadLink and Lstat describe them) but fails to open,
// read or stat through them with a *SymlinkError.
//
// charter never follows symlinks, inside the config root or out of it: a
// symlink in a Git tree is a blob holding a path, so following it in the
// working tree but not at a commit would make `validate` and
// `validate --rev HEAD` read different files.
type SymlinkError struct {
	// Path is the symlink, relative to the config root.
	Path string
	// Target is the link's content as stored (on disk or in Git).
	Target string
}

// Escapes reports whether the link's target, resolved lexically from the
// link's directory, lies outside the config root.
func (e *SymlinkError) Escapes() bool {
	return escapes(e.Path, e.Target)
}

func (e *SymlinkError) Error() string {
	if e.Escapes() {
		return fmt.Sprintf("%s: symlink to %q not followed: it leads out of the config root; copy the file into the config root instead", e.Path, e.Target)
	}
	return fmt.Sprintf("%s: symlink to %q not followed: charter does not follow symlinks; move or copy the file instead", e.Path, e.Target)
}

// escapes reports whether target, relative to the directory of link,
// leaves the root. Absolute targets always do.
func escapes(link, target string) bool {
	t := strings.ReplaceAll(target, "\\", "/")
	if path.IsAbs(t) || (len(t) >= 2 && t[1] == ':') {
		return true
	}
	j := path.Join(path.Dir(link), t)
	return j == ".." || strings.HasPrefix(j, "../")
}

// Symlinks walks fsys and returns every symbolic link in it, in lexical
// order, with its target. A loader calls it to report skipped links as
// diagnostics before it evaluates the files; fsys should implement
// fs.ReadLinkFS (all file systems of this package do) or targets are left
// empty.
func Symlinks(fsys fs.FS) ([]*SymlinkError, error) {
	var links []*SymlinkError
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		target, _ := fs.ReadLink(fsys, p)
		links = append(links, &SymlinkError{Path: p, Target: target})
		return nil
	})
	return links, err
}
