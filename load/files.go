package load

import (
	"io/fs"

	"github.com/charter-dev/charter/diag"
)

// CUEFiles lists the .cue files of fsys that Load reads, in lexical order,
// with diagnostics for what it skips (symbolic links).
func CUEFiles(fsys fs.FS) ([]string, []diag.Diagnostic, error) { return walk(fsys) }
