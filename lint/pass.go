package lint

import (
	"fmt"

	"cuelang.org/go/cue/token"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/config/fieldpath"
	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/config/validate"
)

// Pass is what a rule sees: the compiled program and a way to report.
type Pass struct {
	// Rule is the rule being run.
	Rule *Rule
	// Program is the compiled repository: the model (Program.Config), the
	// resolved agents and the flattened profiles.
	Program *compiler.Program
	// Config is Program.Config.
	Config *model.Config
	// Files are the user's parsed files, with comments.
	Files []*load.File

	shared *shared
	out    *[]finding
}

// finding is a report whose position is resolved later, and only if it
// survives.
type finding struct {
	rule *Rule
	path []string
	pos  token.Pos // when the rule knows it; else resolved from path
	msg  string
	fix  string // the closest valid name, when the message suggests one
	// value is the credential secret-literal found (never printed):
	// build lets a bundle carry it when an ignore with a reason silences
	// the finding.
	value string
}

// Reportf reports a finding at the CUE path (e.g. "agents", "sarah",
// "model", "model_id"). The message is prefixed with the path in dot
// notation; it should say what is wrong and how to fix it.
func (p *Pass) Reportf(path []string, format string, args ...any) {
	*p.out = append(*p.out, finding{rule: p.Rule, path: path, msg: fmt.Sprintf(format, args...)})
}

// ReportNamef reports a wrong name at path, as Reportf, and suggests the
// closest of candidates (diag.Diagnostic.Suggestion) when one is close; the
// message should say so with didYouMean.
func (p *Pass) ReportNamef(path []string, name string, candidates []string, format string, args ...any) {
	fix, _ := validate.Closest(name, candidates)
	*p.out = append(*p.out, finding{rule: p.Rule, path: path, msg: fmt.Sprintf(format, args...), fix: fix})
}

// ReportPosf reports a finding at a known position in a user file (from the
// parsed syntax), with path for the message.
func (p *Pass) ReportPosf(pos token.Pos, path []string, format string, args ...any) {
	*p.out = append(*p.out, finding{rule: p.Rule, path: path, pos: pos, msg: fmt.Sprintf(format, args...)})
}

// Builtin reports whether the value at path is declared only in charter's
// standard library, not in a user file. It costs a lookup: call it for
// candidates, not for every value.
func (p *Pass) Builtin(path ...string) bool {
	pos := p.Program.Locate(path...)
	return pos.File == "" || load.IsEmbedded(pos.File)
}

// KnownTools returns every tool name the repository knows: the tools of
// every behavior type and the members of every profile's tool families.
// The map is shared: do not change it.
func (p *Pass) KnownTools() map[string]bool { return p.shared.tools }

// shared holds what several rules read, computed before they start (they
// run concurrently).
type shared struct {
	tools map[string]bool
}

func newShared(prog *compiler.Program) *shared {
	s := &shared{tools: map[string]bool{}}
	for _, bt := range prog.Config.BehaviorTypes {
		for name := range bt.Tools {
			s.tools[name] = true
		}
	}
	for _, pr := range prog.Profiles {
		for _, members := range pr.ToolFamilies {
			for _, t := range members {
				s.tools[t] = true
			}
		}
	}
	return s
}

// dotted renders a path in dot notation, list indices as [i].
func dotted(path []string) string { return fieldpath.Path(path).String() }

// index returns the path label of list index i.
func index(i int) string { return fieldpath.Index(i) }

// didYouMean returns `; did you mean "x"?` when a candidate is close.
func didYouMean(name string, candidates []string) string {
	if c, ok := validate.Closest(name, candidates); ok {
		return fmt.Sprintf("; did you mean %q?", c)
	}
	return ""
}
