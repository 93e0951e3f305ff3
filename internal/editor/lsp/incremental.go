package lsp

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing/fstest"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/config/incremental"
	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/lint"
)

// Incremental evaluation: on a large repository a full evaluation takes
// seconds, too long to wait for after each keystroke. Package incremental
// says what an edit of files that declare agents and nothing else can
// change, from the last full evaluation that validated (the base); fast
// evaluates that and publishes it. The files compared with the base are
// every open buffer, and always the buffer edited last, so an undo is
// checked like any other edit. An edit of any other file, a file created,
// closed or changed on disk, or a base that did not validate makes a full
// evaluation instead.

// graph is the base's index (incremental.Graph) with its program, whose
// agents stand in for those an incremental evaluation leaves out.
type graph struct {
	*incremental.Graph
	prog *compiler.Program // without its CUE values: see sourceless
}

// newGraph indexes a validated evaluation.
func newGraph(files []*load.File, prog *compiler.Program) *graph {
	return &graph{Graph: incremental.NewGraph(files, prog), prog: sourceless(prog)}
}

// sourceless is a copy of prog without the CUE values it was compiled
// from (hundreds of megabytes at thousands of agents): an incremental
// edit merges the base's agents and model (Plan.MergeProgram), never its
// positions, and the base is kept from edit to edit.
func sourceless(prog *compiler.Program) *compiler.Program {
	c := *prog
	c.ReleaseSource()
	return &c
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

	edits := map[string]*incremental.Edit{}
	for rel, t := range changed {
		if !base.agentsOnly[rel] {
			return false
		}
		edits[rel] = &incremental.Edit{Src: []byte(t.src)}
	}
	plan, ok := base.g.Plan(edits, dirty, false)
	if !ok {
		return false
	}
	fsys := fstest.MapFS{}
	for rel := range plan.Scope {
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
	redo := plan.Redo

	if debugIncremental {
		fmt.Fprintf(os.Stderr, "incremental: %d changed, %d redone, %d in scope\n", len(changed), len(redo), len(plan.Scope))
	}
	start := time.Now()
	res, ok, err := plan.EvaluateWith(&s.ev, fsys, root, func(scoped *compiler.Program) (*compiler.Program, bool) {
		return plan.MergeProgram(scoped, base.g.prog), true
	}, lint.Options{})
	if err != nil || !ok || ctx.Err() != nil {
		return false
	}
	for _, d := range res.Other {
		s.say(protocol.MessageTypeError, "charter: "+d.String())
	}
	valid := res.Program != nil
	vds, lds := res.Diags, res.Lint

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
		s.full, s.fullGen = base.advance(&next, changed, plan, res), gen
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
// validated (next, which published every file's diagnostics): its graph
// advanced over the edited files (incremental.Graph.Advance), the agents
// as the evaluation merged them, the edited texts. Nothing of base is
// changed.
func (base *snapshot) advance(next *snapshot, changed map[string]*text, plan *incremental.Plan, res *incremental.Result) *snapshot {
	nb := *base
	nb.g = &graph{Graph: base.g.Advance(plan.Changed, res.Rev.Validation.Repo().Files, res.Program), prog: sourceless(res.Program)}
	nb.inputs = maps.Clone(base.inputs)
	for rel, t := range changed {
		nb.inputs[rel] = t.src
	}
	nb.vdiags, nb.ldiags = next.vdiags, next.ldiags
	return &nb
}
