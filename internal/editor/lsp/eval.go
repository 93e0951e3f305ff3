package lsp

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"cuelang.org/go/cue/ast"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/internal/output/secret"
	"github.com/charter-dev/charter/internal/repo/source"
	"github.com/charter-dev/charter/lint"
)

// snapshot is one evaluation's outcome.
type snapshot struct {
	// cfg is the decoded model; only a snapshot that validated is used
	// for hover and completion.
	cfg *model.Config
	// partial is the model of a repository that did not validate, decoded
	// as far as possible (validate.Result.Config); read only while no
	// snapshot validated.
	partial *model.Config
	// diags are the published diagnostics by root-relative file: vdiags
	// (validation and the compiler) and, when valid (nothing stopped
	// lint), ldiags (lint's findings).
	diags, vdiags, ldiags map[string][]diag.Diagnostic
	valid                 bool
	// decls are where the user's declarations are.
	decls index
	// took is how long evaluation and lint took; evaluated and linted
	// split it.
	took, evaluated, linted time.Duration
	// notCharter is set when the workspace is no charter repository.
	notCharter bool
	// inputs are the buffers the evaluation read (root-relative path to
	// text); agentsOnly tells, for every file read, whether it declares
	// agents and nothing else (load.AgentsOnly). The incremental path
	// needs both, and g, set when the evaluation validated.
	inputs     map[string]string
	agentsOnly map[string]bool
	g          *graph
	// disk is the server's count of changes on disk when the evaluation
	// started.
	disk uint64
}

// compose sets diags from vdiags and ldiags.
func (sn *snapshot) compose() {
	sn.diags = map[string][]diag.Diagnostic{}
	for rel, ds := range sn.vdiags {
		sn.diags[rel] = ds
	}
	if sn.valid {
		for rel, ds := range sn.ldiags {
			sn.diags[rel] = diag.Sort(append(slices.Clip(sn.diags[rel]), ds...))
		}
	}
}

// composeOnly sets diags from vdiags and ldiags for the files of only,
// and keeps prev's for the others, when only those files can differ from
// prev's (the same validity); else it composes every file. It reports
// whether it composed only those: an incremental evaluation then
// publishes only those, rather than walk thousands of files per edit.
func (sn *snapshot) composeOnly(prev *snapshot, only map[string]bool) bool {
	if prev == nil || prev.diags == nil || prev.valid != sn.valid {
		sn.compose()
		return false
	}
	sn.diags = maps.Clone(prev.diags)
	for rel := range only {
		var ds []diag.Diagnostic
		ds = append(ds, sn.vdiags[rel]...)
		if sn.valid && len(sn.ldiags[rel]) > 0 {
			ds = diag.Sort(append(ds, sn.ldiags[rel]...))
		}
		setDiags(sn.diags, rel, ds)
	}
	return true
}

// loop evaluates after each burst of edits, one evaluation at a time on
// this goroutine (an Evaluator is not safe for concurrent use, and an
// abandoned evaluation returns at its next file read). After an
// incremental evaluation (incremental.go), a full one follows in the
// background once the author pauses, on its own Evaluator: it never holds
// up the next edit's.
func (s *Server) loop(ctx context.Context) {
	var full <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.kick:
		case <-full:
			full = nil
			s.background(ctx)
			continue
		}
		full = nil
	debounce:
		for {
			t := time.NewTimer(s.debounce())
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-s.kick:
				t.Stop()
			case <-t.C:
				break debounce
			}
		}
		start := time.Now()
		fast := s.evaluateSafely(ctx)
		s.mu.Lock()
		s.lastCost = time.Since(start)
		s.mu.Unlock()
		if fast {
			full = time.After(s.fullDelay())
		}
	}
}

// Bounds of the adaptive debounce.
const (
	minDebounce = 20 * time.Millisecond
	maxDebounce = 150 * time.Millisecond
)

// debounce is how long to wait after an edit for the next: Debounce, or
// half what the last evaluation took, within minDebounce and maxDebounce.
// An editor sends a change for every keystroke: those that come faster
// than that are evaluated once, and one evaluation started too early
// costs the next at most twice the wait. Waiting longer would only delay
// the answer: at 10,000 agents an edit's evaluation takes well under the
// 150 ms this used to wait.
func (s *Server) debounce() time.Duration {
	if s.opts.Debounce > 0 {
		return s.opts.Debounce
	}
	s.mu.Lock()
	d := s.lastCost / 2
	s.mu.Unlock()
	return min(max(d, minDebounce), maxDebounce)
}

// fullDelay is the pause after which a full evaluation follows an
// incremental one: FullDelay, and at least as long as the last full
// evaluation took, so that on a large repository it seldom competes with
// the author's edits for the processors.
func (s *Server) fullDelay() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.opts.FullDelay
	if s.full != nil && s.opts.FastAfter >= 0 && s.full.took > d {
		d = s.full.took
	}
	return d
}

// background starts a full evaluation on its own goroutine, unless one is
// running. An edit abandons it (it stops at its next file read, or before
// lint): it would take the processors from the edit's own evaluation, and
// that evaluation, once it validates, is a fresher base than it would be.
// It publishes only if no edit came meanwhile.
func (s *Server) background(ctx context.Context) {
	if !s.bgRunning.CompareAndSwap(false, true) {
		return
	}
	bctx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	s.bgCancel = cancel
	s.mu.Unlock()
	go func() {
		defer s.bgRunning.Store(false)
		defer cancel()
		defer s.recoverEval()
		s.evaluate(bctx, &s.bev, false)
	}()
}

// recoverEval turns a panic (a bug) into a message rather than the end of
// the editor's server.
func (s *Server) recoverEval() {
	if p := recover(); p != nil {
		fmt.Fprintf(s.opts.Log, "charter lsp: internal error while evaluating: %v\n%s", p, debug.Stack())
		s.say(protocol.MessageTypeError, fmt.Sprintf("charter: internal error while evaluating (a bug in charter; please report it with the input that caused it): %v", p))
	}
}

// evaluateSafely evaluates incrementally if it can, else fully, and
// reports whether it was incremental.
func (s *Server) evaluateSafely(ctx context.Context) (fast bool) {
	defer s.recoverEval()
	if s.fast(ctx) {
		return true
	}
	s.evaluate(ctx, &s.ev, true)
	return false
}

// evaluate evaluates the config root with the open buffers over it and
// publishes the diagnostics, unless an edit came in meanwhile; then it
// only becomes the base of incremental evaluations. An edit abandons a
// cancellable evaluation.
func (s *Server) evaluate(ctx context.Context, ev *revision.Evaluator, cancellable bool) {
	s.mu.Lock()
	if s.root == "" || s.shutdown {
		s.mu.Unlock()
		return
	}
	gen, root, disk := s.gen, s.root, s.disk
	ectx, cancel := context.WithCancel(ctx)
	defer cancel()
	if cancellable {
		s.cancel = cancel
	}
	files := map[string]string{}
	large := map[string]int64{}
	texts := map[string]*text{}
	vers := versions(s.docs)
	for _, d := range s.docs {
		switch {
		case d.rel == "":
		case d.large > 0:
			large[d.rel] = d.large
			texts[d.rel] = d.text
		default:
			files[d.rel] = d.text.src
			texts[d.rel] = d.text
		}
	}
	hook := s.started
	s.mu.Unlock()

	if hook != nil {
		hook()
	}
	start := time.Now()
	snap, err := s.run(ectx, ev, root, files, large)
	if ectx.Err() != nil {
		s.abandoned.Add(1)
		return // a newer edit abandoned it
	}
	var nf *load.NoFilesError
	switch {
	case errors.As(err, &nf) || err == nil && snap == nil:
		s.say(protocol.MessageTypeWarning, fmt.Sprintf("charter: %s is not a charter repository (no .cue file declares agents, categories, profiles or another charter field); charter lsp checks nothing here. Open the folder that holds your charter .cue files.", root))
		snap = &snapshot{notCharter: true}
	case err != nil:
		msg := err.Error()
		var re *revision.Error
		if errors.As(err, &re) && re.Hint != "" {
			msg += "; " + re.Hint
		}
		s.say(protocol.MessageTypeError, "charter: "+msg)
		return
	}
	snap.took = time.Since(start)
	snap.disk = disk

	s.mu.Lock()
	// The base of the incremental path is the last full evaluation that
	// validated, even one that is stale for publishing: the path compares
	// the buffers with what it read.
	if snap.g != nil && disk == s.disk && (s.full == nil || s.fullGen <= gen) {
		s.full, s.fullGen = snap, gen
	}
	if gen != s.gen {
		s.resetDirty()
		s.mu.Unlock()
		return
	}
	if !snap.valid && !snap.notCharter && s.snap != nil {
		// Lint did not run: the findings of the last that did stay, not
		// shown, for the incremental path to bring up to date.
		snap.ldiags = s.snap.ldiags
	}
	s.snap = snap
	s.resetDirty()
	if snap.cfg != nil || snap.notCharter {
		s.good = snap
	}
	out := s.publishLocked(root, snap, texts, texts, vers, nil)
	s.mu.Unlock()
	for i := range out {
		s.notify(string(protocol.ServerTextDocumentPublishDiagnostics), &out[i])
	}
	if s.evalled != nil {
		s.evalled <- struct{}{}
	}
}

// publishLocked returns the notifications that bring the client from what
// was published to snap's diagnostics, and records them as published. A
// file that is not open and has the same diagnostics as last time shows
// them already: thousands of files would otherwise be read and sent again
// after every edit. The files of always are sent whatever they hold. A
// non-nil only says that no other file's diagnostics changed since the
// last publication (composeOnly): the others are not looked at.
func (s *Server) publishLocked(root string, snap *snapshot, texts map[string]*text, always map[string]*text, vers map[string]protocol.UInteger, only map[string]bool) (out []protocol.PublishDiagnosticsParams) {
	defer func() {
		// The version of the text the diagnostics are for, LSP's way
		// to tell a client which edit they answer. The open documents
		// go first: when lint comes back after an error, thousands of
		// files' findings come with them, and the author waits for the
		// file edited.
		var first, rest []protocol.PublishDiagnosticsParams
		for i := range out {
			if v, ok := vers[out[i].URI]; ok {
				out[i].Version = &v
				first = append(first, out[i])
			} else {
				rest = append(rest, out[i])
			}
		}
		out = append(first, rest...)
	}()
	if only != nil {
		seen := map[string]bool{}
		for _, set := range []map[string]bool{only, mapKeys(texts), mapKeys(always)} {
			for rel := range set {
				if seen[rel] {
					continue
				}
				seen[rel] = true
				uri := pathURI(filepath.Join(root, filepath.FromSlash(rel)))
				ds, has := snap.diags[rel]
				prev, was := s.published[uri]
				_, must := always[rel]
				switch {
				case has && was && !must && texts[rel] == nil && slices.Equal(prev, ds):
				case has:
					out = append(out, protocol.PublishDiagnosticsParams{URI: uri, Diagnostics: s.convertCached(root, rel, uri, texts[rel], ds)})
					s.published[uri] = ds
				case was || must:
					out = append(out, protocol.PublishDiagnosticsParams{URI: uri, Diagnostics: []protocol.Diagnostic{}})
					delete(s.published, uri)
				}
			}
		}
		return out
	}
	now := map[string][]diag.Diagnostic{}
	for rel, ds := range snap.diags {
		uri := pathURI(filepath.Join(root, filepath.FromSlash(rel)))
		now[uri] = ds
		_, must := always[rel]
		if prev, ok := s.published[uri]; ok && !must && texts[rel] == nil && slices.Equal(prev, ds) {
			continue
		}
		out = append(out, protocol.PublishDiagnosticsParams{URI: uri, Diagnostics: s.convertCached(root, rel, uri, texts[rel], ds)})
	}
	for uri := range s.published {
		if _, ok := now[uri]; !ok {
			out = append(out, protocol.PublishDiagnosticsParams{URI: uri, Diagnostics: []protocol.Diagnostic{}})
		}
	}
	for rel := range always {
		uri := pathURI(filepath.Join(root, filepath.FromSlash(rel)))
		if _, ok := now[uri]; !ok {
			if _, was := s.published[uri]; !was {
				out = append(out, protocol.PublishDiagnosticsParams{URI: uri, Diagnostics: []protocol.Diagnostic{}})
			}
		}
	}
	s.published = now
	return out
}

// mapKeys returns m's keys as a set.
func mapKeys[V any](m map[string]V) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

// versions returns the open documents' versions by URI.
func versions(docs map[string]*document) map[string]protocol.UInteger {
	vers := map[string]protocol.UInteger{}
	for uri, d := range docs {
		if d.version >= 0 {
			vers[uri] = protocol.UInteger(d.version)
		}
	}
	return vers
}

// run evaluates through package revision, then lints as charter lint
// does. It returns a nil snapshot for a workspace that is not a charter
// repository.
func (s *Server) run(ctx context.Context, ev *revision.Evaluator, root string, files map[string]string, large map[string]int64) (*snapshot, error) {
	base, err := revision.Worktree(root)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	rev, err := ev.EvaluateFS(&source.Overlay{Ctx: ctx, Base: base, Files: files, Large: large}, root)
	if err != nil {
		return nil, err
	}
	t1 := time.Now()
	repo := rev.Validation.Repo()
	if len(repo.Skipped) == 0 && !declaresCharter(repo.Files) {
		return nil, nil
	}
	snap := &snapshot{evaluated: t1.Sub(t0), vdiags: map[string][]diag.Diagnostic{}, ldiags: map[string][]diag.Diagnostic{}}
	if ctx.Err() != nil {
		return nil, ctx.Err() // abandoned while validating: no lint
	}
	split := func(ds []diag.Diagnostic, into map[string][]diag.Diagnostic) {
		for _, d := range ds {
			if d.File == "" || load.IsEmbedded(d.File) {
				s.say(protocol.MessageTypeError, "charter: "+d.String())
				continue
			}
			into[d.File] = append(into[d.File], d)
		}
	}
	split(rev.Diagnostics, snap.vdiags)
	snap.agentsOnly = map[string]bool{}
	for _, f := range repo.Files {
		_, snap.agentsOnly[f.Path] = load.AgentsOnly(f.Syntax)
	}
	if rev.OK() {
		found, err := lint.Run(rev.Program, repo.Files, lint.Options{})
		if err != nil {
			return nil, err
		}
		split(found, snap.ldiags)
		snap.valid = true
		snap.cfg = rev.Program.Config
		snap.linted = time.Since(t1)
		snap.g = newGraph(repo.Files, rev.Program)
	} else if !rev.Validation.Incomplete {
		// Decoded as far as it validated: better help than none while
		// no evaluation of this session has validated yet.
		snap.partial = rev.Validation.Config
	}
	snap.compose()
	snap.decls = indexFiles(repo.Files)
	snap.inputs = files
	return snap, nil
}

// topLevel are the top-level fields of a charter repository.
var topLevel = func() map[string]bool {
	m := map[string]bool{}
	t := reflect.TypeFor[model.Config]()
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "-" && name != "" {
			m[name] = true
		}
	}
	return m
}()

// declaresCharter reports whether a file declares a charter top-level
// field: a folder of other CUE is no charter repository.
func declaresCharter(files []*load.File) bool {
	for _, f := range files {
		for _, d := range f.Syntax.Decls {
			if fd, ok := d.(*ast.Field); ok {
				if name, _, _ := ast.LabelName(fd.Label); topLevel[name] {
					return true
				}
			}
		}
	}
	return false
}

// converted is a file's diagnostics as last converted from its text on
// disk.
type converted struct {
	ds   []diag.Diagnostic
	out  []protocol.Diagnostic
	disk uint64 // the server's count of changes on disk then
}

// convertCached is convert, reusing the last conversion of a file that is
// not open when its diagnostics are the same and the disk has not
// changed: when a repository validates again after an error, the lint
// findings of thousands of files come back, and each would be read again.
// s.mu is held.
func (s *Server) convertCached(root, rel, uri string, t *text, ds []diag.Diagnostic) []protocol.Diagnostic {
	if t != nil {
		return s.convert(root, rel, t, ds)
	}
	if c, ok := s.conv[uri]; ok && c.disk == s.disk && slices.Equal(c.ds, ds) {
		return c.out
	}
	out := s.convert(root, rel, nil, ds)
	s.conv[uri] = converted{ds: ds, out: out, disk: s.disk}
	return out
}

// convert turns charter diagnostics of one file into LSP ones, with the
// file's text (the buffer, or the file on disk) for UTF-16 columns.
func (s *Server) convert(root, rel string, t *text, ds []diag.Diagnostic) []protocol.Diagnostic {
	if t == nil {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			src = nil
		}
		t = newText(string(src))
	}
	out := []protocol.Diagnostic{}
	source := "charter"
	for _, d := range ds {
		off := t.at(d.Line, d.Column)
		sev := severity(d.Severity)
		// A message is one line with the values it quotes escaped, as in
		// every text output (docs/design.md §6), and never a credential.
		pd := protocol.Diagnostic{Range: t.rangeOf(off, t.tokenEnd(off)), Severity: &sev, Source: &source, Message: diag.Escape(secret.Redact(d.Message), "")}
		if d.Rule != "" {
			pd.Code = &protocol.IntegerOrString{Value: d.Rule}
		}
		if d.Suggestion != "" {
			pd.Data = map[string]string{"suggestion": d.Suggestion}
		}
		out = append(out, pd)
	}
	return out
}

func severity(s diag.Severity) protocol.DiagnosticSeverity {
	switch s {
	case diag.Error:
		return protocol.DiagnosticSeverityError
	case diag.Warning:
		return protocol.DiagnosticSeverityWarning
	}
	return protocol.DiagnosticSeverityInformation
}
