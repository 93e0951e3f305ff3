package lsp

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing/fstest"
	"time"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/lint"
)

// The fast path. On a large repository a full evaluation takes seconds,
// too long to wait for after each keystroke. When the only buffer that
// differs from what the last full evaluation read is a file that declares
// agents and nothing else, that file cannot change any other declaration
// (load.AgentsOnly), so its own findings come from an evaluation of just
// the files it needs: every file that is not agents-only (types,
// profiles, presets, tests, hidden values), the edited file, and the files
// of the agents these mention (a manager, a delegate, a tested agent).
// That evaluation also goes through package revision, and lint runs on it;
// only the edited file's diagnostics are published from it. The full
// evaluation follows when the author pauses, and publishes every file
// (another file that the edit broke shows then).

// fast evaluates and publishes the one edited file, and reports whether it
// did. It declines when the last full evaluation was quick, when more than
// one buffer changed since, or when the file declares more than agents.
func (s *Server) fast(ctx context.Context) bool {
	s.mu.Lock()
	full, gen, root := s.full, s.gen, s.root
	if full == nil || full.notCharter || full.inputs == nil || s.opts.FastAfter >= 0 && full.took <= s.opts.FastAfter {
		s.mu.Unlock()
		return false
	}
	var changed []*document
	open := map[string]string{}
	for _, d := range s.docs {
		if d.rel == "" {
			continue
		}
		if d.large > 0 {
			// Too large to hold: the full evaluation reports it.
			s.mu.Unlock()
			return false
		}
		open[d.rel] = d.text.src
		if src, ok := full.inputs[d.rel]; !ok || src != d.text.src {
			changed = append(changed, d)
		}
	}
	for rel := range full.inputs {
		if _, ok := open[rel]; !ok {
			changed = append(changed, nil) // closed since: its disk text counts
		}
	}
	if len(changed) != 1 || changed[0] == nil || !full.agentsOnly[changed[0].rel] {
		s.mu.Unlock()
		return false
	}
	edited, etext := changed[0].rel, changed[0].text
	s.mu.Unlock()

	// The buffer must still declare only agents; one that does not parse
	// is evaluated anyway, for its syntax error.
	f, err := parser.ParseFile(edited, etext.src)
	if err == nil {
		if _, ok := load.AgentsOnly(f); !ok {
			return false
		}
	}
	read := func(rel string) ([]byte, bool) {
		if src, ok := open[rel]; ok {
			return []byte(src), true
		}
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		return b, err == nil
	}
	fsys := fstest.MapFS{}
	var asts []*ast.File
	if f != nil {
		asts = append(asts, f)
	}
	for rel, only := range full.agentsOnly {
		if only && rel != edited {
			continue
		}
		b, ok := read(rel)
		if !ok {
			return false
		}
		fsys[rel] = &fstest.MapFile{Data: b}
		if rel != edited {
			if g, err := parser.ParseFile(rel, b); err == nil {
				asts = append(asts, g)
			}
		}
	}
	for _, id := range mentioned(asts) {
		if l, ok := full.decls["agents."+id]; ok && fsys[l.file] == nil {
			b, ok := read(l.file)
			if !ok {
				return false
			}
			fsys[l.file] = &fstest.MapFile{Data: b}
		}
	}

	// The agents of the files left out are there, as the full evaluation
	// found them: the files in scope may name them in authority fields.
	elsewhere := map[string]bool{}
	for key := range full.decls {
		if id, ok := strings.CutPrefix(key, "agents."); ok {
			elsewhere[id] = true
		}
	}
	start := time.Now()
	rev, err := s.ev.EvaluateScope(fsys, root, elsewhere)
	if err != nil || ctx.Err() != nil {
		return false
	}
	var ds []diag.Diagnostic
	for _, d := range rev.Diagnostics {
		if d.File == edited {
			ds = append(ds, d)
		}
	}
	if rev.OK() {
		found, err := lint.Run(rev.Program, rev.Validation.Repo().Files, lint.Options{})
		if err != nil {
			return false
		}
		for _, d := range found {
			// An ignore may silence a finding that needs files left out.
			if d.File == edited && d.Rule != "unused-ignore" {
				ds = append(ds, d)
			}
		}
	}
	ds = diag.Sort(ds)

	s.mu.Lock()
	if gen != s.gen {
		s.mu.Unlock()
		s.abandoned.Add(1)
		return true // a newer edit is waiting: evaluate it next
	}
	snap := *s.snap
	snap.diags = maps.Clone(snap.diags)
	snap.diags[edited] = ds
	if len(ds) == 0 {
		delete(snap.diags, edited)
	}
	snap.inputs = maps.Clone(snap.inputs)
	if snap.inputs == nil {
		snap.inputs = map[string]string{}
	}
	snap.inputs[edited] = etext.src // the code actions check the text they apply to
	snap.took = time.Since(start)
	s.snap = &snap
	uri := pathURI(filepath.Join(root, filepath.FromSlash(edited)))
	if len(ds) > 0 {
		s.published[uri] = ds
	} else {
		delete(s.published, uri)
	}
	p := protocol.PublishDiagnosticsParams{URI: uri, Diagnostics: s.convert(root, edited, etext, ds)}
	s.fastRuns.Add(1)
	s.mu.Unlock()
	s.notify(string(protocol.ServerTextDocumentPublishDiagnostics), &p)
	if s.evalled != nil {
		s.evalled <- struct{}{}
	}
	return true
}

// mentioned returns the string values of files, sorted: the agent ids
// among them name the agents an evaluation of those files needs.
func mentioned(files []*ast.File) []string {
	seen := map[string]bool{}
	for _, f := range files {
		ast.Walk(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if v, err := strconv.Unquote(lit.Value); err == nil && len(v) < 100 {
					seen[v] = true
				}
			}
			return true
		}, nil)
	}
	return slices.Sorted(maps.Keys(seen))
}
