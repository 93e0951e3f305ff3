package load

import (
	"io/fs"

	"github.com/charter-dev/charter/internal/output/diag"
)

// CUEFiles lists the .cue files of fsys that Load reads, in lexical order,
// with diagnostics for what it skips (symbolic links).
func CUEFiles(fsys fs.FS) ([]string, []diag.Diagnostic, error) { return walk(fsys) }

// CUEFileEntries is CUEFiles that also returns each file's fs.DirEntry as
// fs.WalkDir gave it (entries[i] is that of paths[i]): a Git tree's tells
// the file's blob id without reading the file.
func CUEFileEntries(fsys fs.FS) (paths []string, entries []fs.DirEntry, notes []diag.Diagnostic, err error) {
	return walkEntries(fsys)
}
