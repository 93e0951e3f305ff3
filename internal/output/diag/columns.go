package diag

import (
	"bytes"
	"path"
	"strings"
	"unicode/utf8"
)

// CharColumn converts a 1-based byte column of line (1-based) of src to a
// 1-based column in Unicode characters (code points). CUE, like Go, counts
// UTF-8 bytes, so on a line with non-ASCII text before the position a byte
// column points past it; SARIF's default columnKind, editors and people
// count characters. A byte of invalid UTF-8 counts as one character, and so
// does each byte past the end of the line. A line or column that is not
// positive is returned as is.
func CharColumn(src []byte, line, col int) int {
	if line <= 0 || col <= 1 {
		return col
	}
	for i := 1; i < line; i++ {
		nl := bytes.IndexByte(src, '\n')
		if nl < 0 {
			return col
		}
		src = src[nl+1:]
	}
	if nl := bytes.IndexByte(src, '\n'); nl >= 0 {
		src = src[:nl]
	}
	n := min(col-1, len(src))
	return utf8.RuneCount(src[:n]) + (col - 1 - n) + 1
}

// CharColumns returns ds with every column counted in characters
// (CharColumn), for the diagnostics whose file source returns; the others
// keep their column. The producers of diagnostics (load, validate,
// compiler, lint) call it, or CharColumn, once, where they have the
// sources; the output formats print columns as they are.
func CharColumns(ds []Diagnostic, source func(file string) ([]byte, bool)) []Diagnostic {
	for i, d := range ds {
		if d.File == "" || d.Line <= 0 || d.Column <= 1 {
			continue
		}
		if src, ok := source(path.Clean(d.File)); ok {
			ds[i].Column = CharColumn(src, d.Line, d.Column)
		}
	}
	return ds
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
		// "<charter>/stdlib/..." names charter's own files, from no
		// directory.
		if d.File != "" && !strings.HasPrefix(d.File, "<") {
			out[i].File = path.Join(dir, d.File)
		}
	}
	return out
}
