package lsp

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing/fstest"
	"time"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/lint"
)

// Incremental evaluation. On a large repository a full evaluation takes
// seconds, too long to wait for after each keystroke. An edit of files
// that declare agents and nothing else (load.AgentsOnly) changes no other
// declaration, so what it can change is known from the last evaluation
// that validated (the base: a full one, or an incremental one advanced
// over it, see advance) and the edited text:
//
//   - the edited files' own diagnostics;
//   - those of the files whose agents name an agent the edited files
//     declare, before or after the edit (a manager's budget, a pair's
//     compatibility, an unknown reports_to), or declare it too;
//   - those of the agents on a reporting or delegation cycle through an
//     edited agent, before or after the edit, or through an agent of
//     another file redone;
//   - those of the files that declare more than agents (a flow's agent,
//     a test), which are always evaluated;
//   - the rules that judge a declaration by every agent (lint.Global: an
//     unused preset, an unreachable option), which run over the base's
//     agents with the evaluated ones in their place.
//
// These files are evaluated with the files of the agents they name,
// through package revision and lint as charter lint does, and their
// diagnostics replace what was published for them; every other file keeps
// its own. A file's diagnostics are its validation and compiler
// diagnostics, and its lint findings while the repository validates (an
// error anywhere stops lint, as it stops charter lint). The files compared
// with the base are every open buffer, and always the buffer edited last,
// so an undo is checked like any other edit. An edit of any other file, a
// file created, closed or changed on disk, or a base that did not validate
// makes a full evaluation instead.

// graph is what the incremental path needs of a full evaluation that
// validated: who declares and who names each agent, and the authority
// edges, for cycles.
type graph struct {
	declared   map[string][]string // agents-only file -> the agents it declares
	declaredIn map[string][]string // agent -> the agents-only files that declare it
	names      map[string][]string // file -> the agents its strings name
	namedBy    map[string][]string // agent -> the agents-only files whose strings name it
	reports    map[string]string   // agent -> the agent it reports to
	delegates  map[string][]string // agent -> can_delegate_to
	delegators map[string][]string // agent -> the agents that can delegate to it
	all        map[string]bool     // the agents agents-only files declare
	fixed      map[string]bool     // the agents declared elsewhere only (always in scope)
	agents     []*compiler.Agent   // the compiled agents, in id order
	cfg        *model.Config
}

// newGraph indexes a validated evaluation.
func newGraph(files []*load.File, agentsOnly map[string]bool, prog *compiler.Program) *graph {
	g := &graph{declared: map[string][]string{}, declaredIn: map[string][]string{}, names: map[string][]string{},
		namedBy: map[string][]string{}, reports: map[string]string{}, delegates: map[string][]string{},
		delegators: map[string][]string{}, agents: prog.Agents, cfg: prog.Config}
	for _, f := range files {
		if ids, ok := load.AgentsOnly(f.Syntax); ok {
			g.declared[f.Path] = ids
			for _, id := range ids {
				g.declaredIn[id] = append(g.declaredIn[id], f.Path)
			}
		}
	}
	g.all, g.fixed = map[string]bool{}, map[string]bool{}
	for id := range g.declaredIn {
		g.all[id] = true
	}
	for id := range prog.Config.Agents {
		if !g.all[id] {
			g.fixed[id] = true
		}
	}
	for _, f := range files {
		ns := namedAgents(f.Syntax, prog.Config.Agents)
		g.names[f.Path] = ns
		if agentsOnly[f.Path] {
			for _, id := range ns {
				g.namedBy[id] = append(g.namedBy[id], f.Path)
			}
		}
	}
	for id, a := range prog.Config.Agents {
		if a.Authority.ReportsTo != "" {
			g.reports[id] = a.Authority.ReportsTo
		}
		g.delegates[id] = a.Authority.CanDelegateTo
		for _, to := range a.Authority.CanDelegateTo {
			g.delegators[to] = append(g.delegators[to], id)
		}
	}
	return g
}

// namedAgents returns the agents of known that f's strings name, sorted.
func namedAgents[V any](f *ast.File, known map[string]V) []string {
	seen := map[string]bool{}
	ast.Walk(f, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && len(lit.Value) < 200 {
			if v, err := strconv.Unquote(lit.Value); err == nil {
				if _, ok := known[v]; ok {
					seen[v] = true
				}
			}
		}
		return true
	}, nil)
	return slices.Sorted(maps.Keys(seen))
}

// edges are an agent's authority edges: the agent it reports to and
// those it can delegate to.
type edges struct {
	reports   []string
	delegates []string
}

// authorityEdges returns the authority edges of the agents an agents-only
// file declares, read from its syntax. Where a field is not a literal (a
// reference, a comprehension), every agent the file names counts as both.
func authorityEdges(f *ast.File, named []string) map[string]edges {
	out := map[string]edges{}
	var agent func(id string, v ast.Expr, path []string)
	agent = func(id string, v ast.Expr, path []string) {
		e := out[id]
		defer func() { out[id] = e }()
		lit, ok := v.(*ast.StructLit)
		if !ok {
			if len(path) > 0 {
				e.reports, e.delegates = append(e.reports, named...), append(e.delegates, named...)
			}
			return
		}
		for _, el := range lit.Elts {
			fd, ok := el.(*ast.Field)
			if !ok {
				if _, comment := el.(*ast.CommentGroup); !comment {
					e.reports, e.delegates = append(e.reports, named...), append(e.delegates, named...)
				}
				continue
			}
			name, _, _ := ast.LabelName(fd.Label)
			switch {
			case len(path) == 0 && name == "authority":
				out[id] = e
				agent(id, fd.Value, []string{"authority"})
				e = out[id]
			case len(path) == 1 && name == "reports_to":
				if v, ok := stringLit(fd.Value); ok {
					e.reports = append(e.reports, v)
				} else {
					e.reports = append(e.reports, named...)
				}
			case len(path) == 1 && name == "can_delegate_to":
				list, ok := fd.Value.(*ast.ListLit)
				if !ok {
					e.delegates = append(e.delegates, named...)
					continue
				}
				for _, x := range list.Elts {
					if v, ok := stringLit(x); ok {
						e.delegates = append(e.delegates, v)
					} else {
						e.delegates = append(e.delegates, named...)
					}
				}
			}
		}
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.Field)
		if !ok {
			continue
		}
		lit, ok := fd.Value.(*ast.StructLit)
		if !ok {
			continue
		}
		for _, el := range lit.Elts {
			if af, ok := el.(*ast.Field); ok {
				id, _, _ := ast.LabelName(af.Label)
				agent(id, af.Value, nil)
			}
		}
	}
	return out
}

func stringLit(x ast.Expr) (string, bool) {
	lit, ok := x.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	v, err := strconv.Unquote(lit.Value)
	return v, err == nil
}

// onCycles returns the agents on a reports_to or can_delegate_to cycle
// through one of from, where the agents of from have the edges out and
// the others the base's.
func (g *graph) onCycles(from map[string]bool, out map[string]edges) map[string]bool {
	on := map[string]bool{}
	// Reporting: each agent reports to one; follow the chain.
	for id := range from {
		for _, next := range out[id].reports {
			var path []string
			seen := map[string]bool{}
			for cur := next; cur != "" && !seen[cur]; cur = g.reports[cur] {
				seen[cur] = true
				path = append(path, cur)
				if from[cur] {
					for _, p := range path {
						on[p] = true
					}
					break
				}
			}
		}
	}
	// Delegation: the agents reachable from from's delegates that reach
	// one of from.
	back := map[string]bool{}
	queue := slices.Collect(maps.Keys(from))
	for len(queue) > 0 {
		id := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, d := range g.delegators[id] {
			if !back[d] && !from[d] {
				back[d] = true
				queue = append(queue, d)
			}
		}
	}
	fwd := map[string]bool{}
	for id := range from {
		queue = append(queue, out[id].delegates...)
	}
	for len(queue) > 0 {
		id := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if fwd[id] || from[id] {
			continue
		}
		fwd[id] = true
		queue = append(queue, g.delegates[id]...)
	}
	for id := range fwd {
		if back[id] {
			on[id] = true
		}
	}
	return on
}

// fast evaluates what the edits since the base can change and publishes
// it, and reports whether it did (false: a full evaluation is needed).
func (s *Server) fast(ctx context.Context) bool {
	s.mu.Lock()
	base, cur, gen, root, last := s.full, s.snap, s.gen, s.root, s.lastEdited
	dirty := slices.Collect(maps.Keys(s.dirty))
	if base == nil || base.g == nil || cur == nil || base.disk != s.disk || s.opts.FastAfter >= 0 && base.took <= s.opts.FastAfter {
		s.mu.Unlock()
		return false
	}
	open := map[string]*text{}
	changed := map[string]*text{}
	vers := versions(s.docs)
	for _, d := range s.docs {
		if d.rel == "" {
			continue
		}
		if d.large > 0 {
			// Too large to hold: the full evaluation reports it.
			s.mu.Unlock()
			return false
		}
		open[d.rel] = d.text
		if src, ok := base.inputs[d.rel]; !ok || src != d.text.src || d.rel == last {
			changed[d.rel] = d.text
		}
	}
	s.mu.Unlock()
	for rel := range base.inputs {
		if open[rel] == nil {
			return false // closed since: its disk text counts
		}
	}
	if len(changed) == 0 {
		return false
	}

	g := base.g
	ids := map[string]bool{}  // the agents the edited files declare, before or after
	out := map[string]edges{} // their authority edges, before and after
	for rel, t := range changed {
		if !base.agentsOnly[rel] {
			return false
		}
		for _, id := range g.declared[rel] {
			ids[id] = true
		}
		f, err := parser.ParseFile(rel, t.src)
		if err != nil {
			continue // evaluated for its syntax error
		}
		now, ok := load.AgentsOnly(f)
		if !ok {
			return false
		}
		for id, e := range authorityEdges(f, namedAgents(f, g.declaredIn)) {
			o := out[id]
			o.reports, o.delegates = append(o.reports, e.reports...), append(o.delegates, e.delegates...)
			out[id] = o
		}
		for _, id := range now {
			ids[id] = true
		}
	}
	for id := range ids {
		// The base's edges too: a cycle the edit breaks.
		o := out[id]
		if r := g.reports[id]; r != "" {
			o.reports = append(o.reports, r)
		}
		o.delegates = append(o.delegates, g.delegates[id]...)
		out[id] = o
	}

	// redo: the files whose diagnostics are computed again.
	redo := map[string]bool{}
	for rel := range changed {
		redo[rel] = true
	}
	for rel, only := range base.agentsOnly {
		if !only {
			redo[rel] = true
		}
	}
	for _, rel := range dirty {
		// Published from an earlier edit, and not what the base has: an
		// edit since may have undone what made it so.
		redo[rel] = true
	}
	addAgent := func(set map[string]bool, id string) {
		for _, f := range g.declaredIn[id] {
			set[f] = true
		}
	}
	for id := range ids {
		addAgent(redo, id)
		for _, f := range g.namedBy[id] {
			redo[f] = true
		}
	}
	for id := range g.onCycles(ids, out) {
		addAgent(redo, id)
	}
	// The agents of the other files redone that are on a cycle (one an
	// earlier edit made, in the base since it advanced): the cycle's
	// files are evaluated with them, or its finding would be lost.
	around, aroundOut := map[string]bool{}, map[string]edges{}
	for rel := range redo {
		for _, id := range g.declared[rel] {
			if !ids[id] {
				around[id] = true
				e := edges{delegates: g.delegates[id]}
				if r := g.reports[id]; r != "" {
					e.reports = []string{r}
				}
				aroundOut[id] = e
			}
		}
	}
	for id := range g.onCycles(around, aroundOut) {
		addAgent(redo, id)
	}
	// scope: those files and the files of the agents they name.
	scope := maps.Clone(redo)
	for rel := range redo {
		var named []string
		if t, ok := changed[rel]; ok {
			f, err := parser.ParseFile(rel, t.src)
			if err != nil {
				continue
			}
			named = namedAgents(f, g.declaredIn)
		} else {
			named = g.names[rel]
		}
		for _, id := range named {
			addAgent(scope, id)
		}
	}

	fsys := fstest.MapFS{}
	for rel := range scope {
		var b []byte
		if t, ok := open[rel]; ok {
			b = []byte(t.src)
		} else {
			var err error
			if b, err = os.ReadFile(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
				return false
			}
		}
		fsys[rel] = &fstest.MapFile{Data: b}
	}
	// The agents of the files left out are there, as the base found them:
	// the files in scope may name them in authority fields.
	// Computed from the few agents in scope, not by looking up thousands
	// of agents in a map: this runs after every edit.
	inScope := maps.Clone(g.fixed)
	for rel := range scope {
		for _, id := range g.declared[rel] {
			inScope[id] = true
		}
	}
	elsewhere := maps.Clone(g.all)
	for id := range inScope {
		delete(elsewhere, id)
	}

	if debugIncremental {
		fmt.Fprintf(os.Stderr, "incremental: %d changed, %d redone, %d in scope\n", len(changed), len(redo), len(scope))
	}
	start := time.Now()
	rev, err := s.ev.EvaluateScope(fsys, root, elsewhere)
	if err != nil || ctx.Err() != nil {
		return false
	}
	vds := map[string][]diag.Diagnostic{}
	for _, d := range rev.Diagnostics {
		if d.File == "" || load.IsEmbedded(d.File) {
			s.say(protocol.MessageTypeError, "charter: "+d.String())
		} else if redo[d.File] {
			vds[d.File] = append(vds[d.File], d)
		}
	}
	valid := rev.Program != nil
	lds := map[string][]diag.Diagnostic{}
	var merged *compiler.Program
	if valid {
		files := rev.Validation.Repo().Files
		found, err := lint.Run(rev.Program, files, lint.Options{})
		if err != nil {
			return false
		}
		global := lint.Global()
		for _, d := range found {
			if redo[d.File] && !slices.Contains(global, d.Rule) {
				lds[d.File] = append(lds[d.File], d)
			}
		}
		merged = merge(rev.Program, g, inScope)
		found, err = lint.Run(merged, files, lint.Options{Subset: global})
		if err != nil {
			return false
		}
		for _, d := range found {
			if redo[d.File] {
				lds[d.File] = append(lds[d.File], d)
			}
		}
	}

	s.mu.Lock()
	if gen != s.gen {
		s.mu.Unlock()
		s.abandoned.Add(1)
		return true // a newer edit is waiting: evaluate it next
	}
	next := *s.snap
	next.vdiags, next.ldiags = maps.Clone(next.vdiags), maps.Clone(next.ldiags)
	for rel := range redo {
		setDiags(next.vdiags, rel, vds[rel])
		if valid {
			setDiags(next.ldiags, rel, lds[rel])
		}
	}
	next.valid = valid
	var only map[string]bool
	if next.composeOnly(s.snap, redo) {
		only = redo
	}
	for rel := range redo {
		s.markDirty(&next, rel)
	}
	next.inputs = maps.Clone(next.inputs)
	if next.inputs == nil {
		next.inputs = map[string]string{}
	}
	for rel, t := range changed {
		next.inputs[rel] = t.src // the code actions check the text they apply to
	}
	next.took = time.Since(start)
	s.snap = &next
	if valid && s.full == base {
		// What was published is now what a full evaluation would give:
		// it becomes the base, so the next edit's scope is that edit's
		// alone, not everything edited since the last full evaluation.
		s.full, s.fullGen = base.advance(&next, changed, rev.Validation.Repo().Files, merged), gen
		s.dirty = map[string]bool{}
	}
	out2 := s.publishLocked(root, &next, open, changed, vers, only)
	s.fastRuns.Add(1)
	s.mu.Unlock()
	for i := range out2 {
		s.notify(string(protocol.ServerTextDocumentPublishDiagnostics), &out2[i])
	}
	if s.evalled != nil {
		s.evalled <- struct{}{}
	}
	return true
}

// merge returns scoped with the agents the scope left out (those not
// inScope) as the base has them: the program the rules of lint.Global
// judge. Positions are the scope's, which holds every declaration those
// rules report on.
func merge(scoped *compiler.Program, g *graph, inScope map[string]bool) *compiler.Program {
	// Both lists are in id order: merged in one pass, as the map is
	// copied whole (a copy, not thousands of insertions), for this runs
	// after every edit.
	m := *scoped
	cfg := *scoped.Config
	cfg.Agents = maps.Clone(g.cfg.Agents)
	for id := range inScope {
		delete(cfg.Agents, id)
	}
	maps.Copy(cfg.Agents, scoped.Config.Agents)
	agents := make([]*compiler.Agent, 0, len(g.agents)+len(scoped.Agents))
	in := scoped.Agents
	for _, a := range g.agents {
		if inScope[a.ID] {
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

// setDiags sets m[rel] to ds, or deletes it when ds is empty.
func setDiags(m map[string][]diag.Diagnostic, rel string, ds []diag.Diagnostic) {
	if len(ds) == 0 {
		delete(m, rel)
		return
	}
	m[rel] = ds
}

var debugIncremental = os.Getenv("CHARTER_DEBUG_INCREMENTAL") != ""

// markDirty records whether rel's diagnostics in sn differ from the
// base's; s.mu is held.
func (s *Server) markDirty(sn *snapshot, rel string) {
	if s.full == nil {
		return
	}
	if slices.Equal(sn.vdiags[rel], s.full.vdiags[rel]) && slices.Equal(sn.ldiags[rel], s.full.ldiags[rel]) {
		delete(s.dirty, rel)
	} else {
		s.dirty[rel] = true
	}
}

// resetDirty records, for every file, whether the published diagnostics
// differ from the base's: after a full evaluation published, or became
// the base. s.mu is held.
func (s *Server) resetDirty() {
	s.dirty = map[string]bool{}
	if s.snap == nil || s.full == nil {
		return
	}
	for _, m := range []map[string][]diag.Diagnostic{s.snap.vdiags, s.snap.ldiags, s.full.vdiags, s.full.ldiags} {
		for rel := range m {
			s.markDirty(s.snap, rel)
		}
	}
}

// advance returns the base brought up to an incremental evaluation that
// validated (next, which published every file's diagnostics): the edited
// files' texts, declarations, names and authority edges, and the agents
// as the evaluation merged them. Nothing of base is changed: a copy is
// made of what differs.
func (base *snapshot) advance(next *snapshot, changed map[string]*text, files []*load.File, merged *compiler.Program) *snapshot {
	old := base.g
	g := *old
	g.declared, g.declaredIn, g.names, g.namedBy = maps.Clone(old.declared), maps.Clone(old.declaredIn), maps.Clone(old.names), maps.Clone(old.namedBy)
	g.reports, g.delegates, g.delegators = maps.Clone(old.reports), maps.Clone(old.delegates), maps.Clone(old.delegators)
	g.all, g.agents, g.cfg = maps.Clone(old.all), merged.Agents, merged.Config
	without := func(list []string, x string) []string {
		return slices.DeleteFunc(slices.Clone(list), func(y string) bool { return y == x })
	}
	touched := map[string]bool{} // the agents whose edges may have changed
	for _, f := range files {
		if changed[f.Path] == nil {
			continue
		}
		rel := f.Path
		ids, _ := load.AgentsOnly(f.Syntax)
		for _, id := range g.declared[rel] {
			g.declaredIn[id] = without(g.declaredIn[id], rel)
			touched[id] = true
		}
		for _, id := range ids {
			g.declaredIn[id] = append(slices.Clone(g.declaredIn[id]), rel)
			touched[id] = true
		}
		g.declared[rel] = ids
		for _, id := range g.names[rel] {
			g.namedBy[id] = without(g.namedBy[id], rel)
		}
		g.names[rel] = namedAgents(f.Syntax, merged.Config.Agents)
		for _, id := range g.names[rel] {
			g.namedBy[id] = append(slices.Clone(g.namedBy[id]), rel)
		}
	}
	for id := range touched {
		if len(g.declaredIn[id]) == 0 {
			delete(g.declaredIn, id)
			delete(g.all, id)
		} else {
			g.all[id] = true
		}
		for _, to := range g.delegates[id] {
			g.delegators[to] = without(g.delegators[to], id)
		}
		delete(g.reports, id)
		delete(g.delegates, id)
		if a, ok := merged.Config.Agents[id]; ok {
			if a.Authority.ReportsTo != "" {
				g.reports[id] = a.Authority.ReportsTo
			}
			g.delegates[id] = a.Authority.CanDelegateTo
			for _, to := range a.Authority.CanDelegateTo {
				g.delegators[to] = append(slices.Clone(g.delegators[to]), id)
			}
		}
	}
	nb := *base
	nb.g = &g
	nb.inputs = maps.Clone(base.inputs)
	for rel, t := range changed {
		nb.inputs[rel] = t.src
	}
	nb.vdiags, nb.ldiags = next.vdiags, next.ldiags
	return &nb
}
