package lint

import (
	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/output/diag"
)

// Guard is what build checks before it writes a bundle (docs/design.md
// §7: a credential-looking value never reaches the bundle, unless a
// reasoned ignore comment at its line says it is not one).
type Guard struct {
	// Findings are the credentials rule secret-literal finds, in literals
	// or in resolved values, that no ignore comment with a reason
	// silences. lint.disable and lint.severity have no say here, nor
	// --no-inline-ignores: an ignore with a reason is how an author says a
	// value is no credential.
	Findings []diag.Diagnostic
	// Excused are the values ignore comments with a reason say are no
	// credentials: the bundle may carry them.
	Excused []string
	// ExcusedIn are the files of the ignore comments that excuse them,
	// one for each of Excused.
	ExcusedIn []string
}

// Credentials runs rule secret-literal for build's guard.
func Credentials(prog *compiler.Program, files []*load.File) Guard {
	found := runRules(prog, files, map[string]bool{secretLiteral.ID: true})
	if len(found) == 0 {
		return Guard{}
	}
	loc := &locator{prog: prog}
	ignores := parseIgnores(files)
	severity := map[string]diag.Severity{secretLiteral.ID: diag.Error}
	var g Guard
	for _, f := range found {
		d := loc.diag(f, severity)
		if len(applyIgnores([]diag.Diagnostic{d}, ignores)) == 0 {
			g.Excused, g.ExcusedIn = append(g.Excused, f.value), append(g.ExcusedIn, d.File)
			continue
		}
		g.Findings = append(g.Findings, d)
	}
	g.Findings = diag.Sort(g.Findings)
	return g
}
