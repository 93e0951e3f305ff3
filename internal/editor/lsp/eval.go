package lsp

import (
	"context"
	"errors"
	"fmt"
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
	// diags are the published diagnostics by root-relative file.
	diags map[string][]diag.Diagnostic
	// decls are where the user's declarations are.
	decls index
	// took is how long evaluation and lint took; evaluated and linted
	// split it.
	took, evaluated, linted time.Duration
	// notCharter is set when the workspace is no charter repository.
	notCharter bool
	// inputs are the buffers the evaluation read (root-relative path to
	// text); agentsOnly tells, for every file read, whether it declares
	// agents and nothing else (load.AgentsOnly). The fast path needs both.
	inputs     map[string]string
	agentsOnly map[string]bool
}

// loop evaluates after each burst of edits, one evaluation at a time (an
// Evaluator is not safe for concurrent use, and an abandoned evaluation
// returns at its next file read). After a fast evaluation of one file
// (fast.go), the full one follows once the author pauses.
func (s *Server) loop(ctx context.Context) {
	var full <-chan time.Time
	for {
		fastOK := true
		select {
		case <-ctx.Done():
			return
		case <-s.kick:
		case <-full:
			fastOK = false
		}
		full = nil
		if fastOK {
		debounce:
			for {
				t := time.NewTimer(s.opts.Debounce)
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
		}
		if s.evaluateSafely(ctx, fastOK) {
			full = time.After(s.opts.FullDelay)
		}
	}
}

// evaluateSafely is evaluate that turns a panic (a bug) into a message
// rather than the end of the editor's server.
func (s *Server) evaluateSafely(ctx context.Context, fastOK bool) (fast bool) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(s.opts.Log, "charter lsp: internal error while evaluating: %v\n%s", p, debug.Stack())
			s.say(protocol.MessageTypeError, fmt.Sprintf("charter: internal error while evaluating (a bug in charter; please report it with the input that caused it): %v", p))
		}
	}()
	if fastOK && s.fast(ctx) {
		return true
	}
	s.evaluate(ctx)
	return false
}

// evaluate evaluates the config root with the open buffers over it and
// publishes the diagnostics, unless an edit came in meanwhile.
func (s *Server) evaluate(ctx context.Context) {
	s.mu.Lock()
	if s.root == "" || s.shutdown {
		s.mu.Unlock()
		return
	}
	gen, root := s.gen, s.root
	ectx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.cancel = cancel
	files := map[string]string{}
	large := map[string]int64{}
	texts := map[string]*text{}
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
	snap, err := s.run(ectx, root, files, large)
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

	s.mu.Lock()
	if gen != s.gen {
		s.mu.Unlock()
		return
	}
	s.snap, s.full = snap, snap
	if snap.cfg != nil || snap.notCharter {
		s.good = snap
	}
	var out []protocol.PublishDiagnosticsParams
	now := map[string][]diag.Diagnostic{}
	for rel, ds := range snap.diags {
		uri := pathURI(filepath.Join(root, filepath.FromSlash(rel)))
		now[uri] = ds
		// A file that is not open and has the same findings as last time
		// shows them already: thousands of files would otherwise be read
		// and sent again after every edit.
		if prev, ok := s.published[uri]; ok && texts[rel] == nil && slices.Equal(prev, ds) {
			continue
		}
		out = append(out, protocol.PublishDiagnosticsParams{URI: uri, Diagnostics: s.convert(root, rel, texts[rel], ds)})
	}
	for uri := range s.published {
		if _, ok := now[uri]; !ok {
			out = append(out, protocol.PublishDiagnosticsParams{URI: uri, Diagnostics: []protocol.Diagnostic{}})
		}
	}
	s.published = now
	s.mu.Unlock()
	for i := range out {
		s.notify(string(protocol.ServerTextDocumentPublishDiagnostics), &out[i])
	}
	if s.evalled != nil {
		s.evalled <- struct{}{}
	}
}

// run evaluates through package revision, then lints as charter lint
// does. It returns a nil snapshot for a workspace that is not a charter
// repository.
func (s *Server) run(ctx context.Context, root string, files map[string]string, large map[string]int64) (*snapshot, error) {
	base, err := revision.Worktree(root)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	rev, err := s.ev.EvaluateFS(&source.Overlay{Ctx: ctx, Base: base, Files: files, Large: large}, root)
	if err != nil {
		return nil, err
	}
	t1 := time.Now()
	repo := rev.Validation.Repo()
	if len(repo.Skipped) == 0 && !declaresCharter(repo.Files) {
		return nil, nil
	}
	ds := rev.Diagnostics
	snap := &snapshot{evaluated: t1.Sub(t0)}
	if ctx.Err() != nil {
		return nil, ctx.Err() // abandoned while validating: no lint
	}
	if rev.OK() {
		found, err := lint.Run(rev.Program, repo.Files, lint.Options{})
		if err != nil {
			return nil, err
		}
		ds = diag.Sort(append(ds, found...))
		snap.cfg = rev.Program.Config
		snap.linted = time.Since(t1)
	} else if !rev.Validation.Incomplete {
		// Decoded as far as it validated: better help than none while
		// no evaluation of this session has validated yet.
		snap.partial = rev.Validation.Config
	}
	snap.diags = map[string][]diag.Diagnostic{}
	for _, d := range ds {
		if d.File == "" || load.IsEmbedded(d.File) {
			s.say(protocol.MessageTypeError, "charter: "+d.String())
			continue
		}
		snap.diags[d.File] = append(snap.diags[d.File], d)
	}
	snap.decls = indexFiles(repo.Files)
	snap.inputs = files
	snap.agentsOnly = map[string]bool{}
	for _, f := range repo.Files {
		_, snap.agentsOnly[f.Path] = load.AgentsOnly(f.Syntax)
	}
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
		pd := protocol.Diagnostic{Range: t.rangeOf(off, t.tokenEnd(off)), Severity: &sev, Source: &source, Message: secret.Redact(d.Message)}
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
