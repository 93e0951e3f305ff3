// Package cuefmt formats CUE files as `cue fmt` does (simplified), with the
// formatter of the CUE version charter embeds: it is pinned in go.mod,
// since the printer changes between CUE versions.
package cuefmt

import (
	"bytes"
	"fmt"

	"cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/parser"

	"github.com/charter-dev/charter/internal/output/diag"
)

// Source returns the canonical form of a file's source. A syntax error
// comes back as diagnostics at its position.
func Source(path string, src []byte) ([]byte, []diag.Diagnostic) {
	f, err := parser.ParseFile(path, src, parser.ParseComments)
	if err != nil {
		var ds []diag.Diagnostic
		for _, e := range errors.Errors(err) {
			msg, args := e.Msg()
			d := diag.Diagnostic{File: path, Severity: diag.Error, Rule: "syntax", Message: fmt.Sprintf(msg, args...)}
			if p := e.Position(); p.IsValid() {
				d.Line, d.Column = p.Line(), diag.CharColumn(src, p.Line(), p.Column())
			}
			ds = append(ds, d)
		}
		return nil, ds
	}
	out, err := format.Node(f, format.Simplify())
	if err != nil {
		return nil, []diag.Diagnostic{{File: path, Severity: diag.Error, Rule: "syntax", Message: err.Error()}}
	}
	// Simplifying ({type: "string"} to type: "string") changes how the
	// fields around align on the next run: format what was written until
	// it stays, so that fmt --check passes after fmt.
	for range 3 {
		f, err := parser.ParseFile(path, out, parser.ParseComments)
		if err != nil {
			break
		}
		again, err := format.Node(f, format.Simplify())
		if err != nil || bytes.Equal(again, out) {
			break
		}
		out = again
	}
	return out, nil
}
