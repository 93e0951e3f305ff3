package diag

import (
	"bytes"
	"io/fs"
	"path"
	"unicode/utf8"
)

// CharColumns returns ds with every column counted in Unicode characters
// (code points) instead of bytes, reading each file named by a diagnostic
// from fsys once. CUE and the other position sources count UTF-8 bytes, so
// on a line with non-ASCII text before the finding a byte column points
// past it; SARIF's default columnKind, editors and readers count
// characters. A byte of invalid UTF-8 counts as one character. A
// diagnostic whose file cannot be read keeps its column.
func CharColumns(ds []Diagnostic, fsys fs.FS) []Diagnostic {
	if fsys == nil {
		return ds
	}
	out := make([]Diagnostic, len(ds))
	lines := map[string][][]byte{}
	for i, d := range ds {
		out[i] = d
		if d.File == "" || d.Line <= 0 || d.Column <= 1 {
			continue
		}
		ls, seen := lines[d.File]
		if !seen {
			if b, err := fs.ReadFile(fsys, path.Clean(d.File)); err == nil {
				ls = bytes.Split(b, []byte("\n"))
			}
			lines[d.File] = ls
		}
		if d.Line > len(ls) {
			continue
		}
		line := ls[d.Line-1]
		n := min(d.Column-1, len(line))
		out[i].Column = utf8.RuneCount(line[:n]) + (d.Column - 1 - n) + 1
	}
	return out
}

// Rebase returns ds with dir joined in front of every file, for the formats
// whose readers resolve paths from another directory than the config root:
// GitHub reads SARIF and workflow commands relative to the repository root,
// so with -C config a finding in agents/x.cue is config/agents/x.cue there.
// dir is slash-separated; "" and "." leave ds as it is.
func Rebase(ds []Diagnostic, dir string) []Diagnostic {
	if dir == "" || dir == "." {
		return ds
	}
	out := make([]Diagnostic, len(ds))
	for i, d := range ds {
		out[i] = d
		if d.File != "" {
			out[i].File = path.Join(dir, d.File)
		}
	}
	return out
}
