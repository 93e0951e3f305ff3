package load

import (
	"cuelang.org/go/cue"
	"cuelang.org/go/cue/token"

	"github.com/charter-dev/charter/internal/config/fieldpath"
)

// Locate is the one locator: it returns the position of the value at path
// (list indexes select elements, see fieldpath) in the first of roots that
// has one, or else of its nearest ancestor that has one. At each length of
// path, from the whole down to its first label, each root is asked in
// turn; the roots themselves are never asked (a whole value has no single
// position). at gives the position of the nearest value that exists, anc
// that of the ones above it (nil: at for all).
func Locate(roots []cue.Value, path fieldpath.Path, at, anc func(cue.Value) token.Pos) token.Pos {
	if anc == nil {
		anc = at
	}
	pos := at
	sels := path.Selectors()
	for n := len(sels); n >= 1; n-- {
		for _, root := range roots {
			v := root.LookupPath(cue.MakePath(sels[:n]...))
			if !v.Exists() {
				continue
			}
			if p := pos(v); p.IsValid() {
				return p
			}
			pos = anc
		}
	}
	return token.NoPos
}
