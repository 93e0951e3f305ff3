package incremental

import (
	"cmp"
	"io/fs"
	"maps"
	"slices"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/lint"
)

// Agents gives the base's agents that a scope leaves out, as the rules
// of lint.Global judge them, in the shape of the scope's program; false
// when it cannot (then the evaluation must be full).
type Agents func(id string, scoped *compiler.Program) (*compiler.Agent, *model.Agent, bool)

// Result is the outcome of evaluating a plan.
type Result struct {
	// Rev is the evaluation of the plan's scope.
	Rev *revision.Revision
	// Diags are the validation and compiler diagnostics of the files of
	// Plan.Redo, and Lint their lint findings while Rev is OK (an error
	// anywhere stops lint); a file without any is missing.
	Diags, Lint map[string][]diag.Diagnostic
	// Other are the diagnostics of no user file (the standard library,
	// none at all).
	Other []diag.Diagnostic
	// Program is Rev's program with the agents out of scope in place, as
	// Agents gave them: what the rules of lint.Global judged. Nil unless
	// Rev is OK.
	Program *compiler.Program
}

// Evaluate evaluates the plan's scope, given as fsys (every file of
// p.Scope, as it is now), with ev, and lints it with opts: the rules of
// lint.Global over the scope's program with the base's agents out of
// scope in place. name is what messages call the revision. It reports
// false when base cannot give an agent.
func (p *Plan) Evaluate(ev *revision.Evaluator, fsys fs.FS, name string, base Agents, opts lint.Options) (*Result, bool, error) {
	return p.EvaluateWith(ev, fsys, name, func(scoped *compiler.Program) (*compiler.Program, bool) {
		return Merge(scoped, p.Elsewhere, base)
	}, opts)
}

// EvaluateWith is Evaluate with the merge of the base's agents into the
// scope's program given whole: an editor holding the base's program
// merges it in one pass (MergeProgram).
func (p *Plan) EvaluateWith(ev *revision.Evaluator, fsys fs.FS, name string, merge func(scoped *compiler.Program) (*compiler.Program, bool), opts lint.Options) (*Result, bool, error) {
	rev, err := ev.EvaluateScope(fsys, name, p.Elsewhere)
	if err != nil {
		return nil, false, err
	}
	res := &Result{Rev: rev, Diags: map[string][]diag.Diagnostic{}, Lint: map[string][]diag.Diagnostic{}}
	for _, d := range rev.Diagnostics {
		switch {
		case d.File == "" || load.IsEmbedded(d.File):
			res.Other = append(res.Other, d)
		case p.Redo[d.File]:
			res.Diags[d.File] = append(res.Diags[d.File], d)
		}
	}
	if !rev.OK() {
		return res, true, nil
	}
	merged, ok := merge(rev.Program)
	if !ok {
		return nil, false, nil
	}
	opts.Global = merged
	found, err := lint.Run(rev.Program, rev.Validation.Repo().Files, opts)
	if err != nil {
		return nil, false, err
	}
	for _, d := range found {
		if p.Redo[d.File] {
			res.Lint[d.File] = append(res.Lint[d.File], d)
		}
	}
	res.Program = merged
	return res, true, nil
}

// Merge returns scoped with the agents the scope left out (elsewhere) as
// base gives them: the program the rules of lint.Global judge. Positions
// are the scope's, which holds every declaration those rules report on.
func Merge(scoped *compiler.Program, elsewhere map[string]bool, base Agents) (*compiler.Program, bool) {
	m := *scoped
	cfg := *scoped.Config
	cfg.Agents = maps.Clone(scoped.Config.Agents)
	agents := slices.Clone(scoped.Agents)
	for _, id := range slices.Sorted(maps.Keys(elsewhere)) {
		a, decl, ok := base(id, scoped)
		if !ok {
			return nil, false
		}
		agents = append(agents, a)
		cfg.Agents[id] = decl
	}
	slices.SortFunc(agents, func(a, b *compiler.Agent) int { return cmp.Compare(a.ID, b.ID) })
	m.Config, m.Agents = &cfg, agents
	return &m, true
}

// MergeProgram is Merge with the base's agents taken from base, the
// program of the evaluation g was made from (or Result.Program, once
// advanced), whose Agents are in id order. It copies base's map whole and
// merges the two lists in one pass: with thousands of agents elsewhere,
// this runs after every edit of an editor.
func (p *Plan) MergeProgram(scoped, base *compiler.Program) *compiler.Program {
	m := *scoped
	cfg := *scoped.Config
	cfg.Agents = maps.Clone(base.Config.Agents)
	for id := range p.left {
		delete(cfg.Agents, id)
	}
	maps.Copy(cfg.Agents, scoped.Config.Agents)
	agents := make([]*compiler.Agent, 0, len(base.Agents)+len(scoped.Agents))
	in := scoped.Agents
	for _, a := range base.Agents {
		if !p.Elsewhere[a.ID] {
			continue
		}
		for len(in) > 0 && in[0].ID < a.ID {
			agents, in = append(agents, in[0]), in[1:]
		}
		agents = append(agents, a)
	}
	agents = append(agents, in...)
	m.Config, m.Agents = &cfg, agents
	return &m
}
