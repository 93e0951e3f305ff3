package lint

import (
	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/output/diag"
)

// Credentials returns the literal credentials that lint reports as errors
// (rule secret-literal, at the severity the repository gives it, less
// those silenced with a reason): what build refuses to put in a bundle.
// --no-inline-ignores has no say here: an ignore with a reason is how an
// author says a value is no credential.
func Credentials(prog *compiler.Program, files []*load.File) []diag.Diagnostic {
	enabled, severity, _ := configure(prog.Config.Lint, Options{})
	if !enabled[secretLiteral.ID] {
		return nil
	}
	found := runRules(prog, files, map[string]bool{secretLiteral.ID: true})
	if len(found) == 0 {
		return nil
	}
	loc := &locator{prog: prog}
	var ds []diag.Diagnostic
	for _, f := range found {
		ds = append(ds, loc.diag(f, severity))
	}
	ds = applyIgnores(ds, parseIgnores(files))
	out := ds[:0]
	for _, d := range ds {
		if d.Severity == diag.Error {
			out = append(out, d)
		}
	}
	return diag.Sort(out)
}
