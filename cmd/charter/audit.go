package main

import (
	"fmt"
	"io/fs"

	"github.com/charter-dev/charter/bundle"
	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/diag"
	"github.com/charter-dev/charter/internal/par"
	"github.com/charter-dev/charter/load"
	"github.com/charter-dev/charter/render"
)

// evaluation is one version of the configuration, compiled.
type evaluation struct {
	prog  *compiler.Program
	diags []diag.Diagnostic
}

// evaluate loads, validates and compiles fsys without printing anything.
// A configuration with errors returns them in diags and a nil prog; an
// unreadable one is an exit-2 error.
func evaluate(fsys fs.FS, name string) (*evaluation, error) { return evaluateWith(nil, fsys, name) }

// evaluateWith is evaluate in the loader's CUE context (nil for a new one).
func evaluateWith(ld *load.Loader, fsys fs.FS, name string) (*evaluation, error) {
	l, err := loadWith(ld, fsys, name)
	if err != nil {
		return nil, err
	}
	prog, ds := check(l)
	return &evaluation{prog: prog, diags: ds}, nil
}

// agentDoc returns one agent's agent.json object, or nil when it does not
// exist.
func (e *evaluation) agentDoc(id string) (map[string]any, error) {
	for _, a := range e.prog.Agents {
		if a.ID == id {
			p, err := render.Render(e.prog, a)
			if err != nil {
				return nil, err
			}
			doc, _, err := bundle.AgentDoc(a, p.String())
			return doc, err
		}
	}
	return nil, nil
}

// agentJSONs returns every agent's document as bundle.AgentJSON gives it
// (or only one's, when only is set), built in parallel: rendering and
// encoding read the compiled program only.
func (e *evaluation) agentJSONs(only string) (map[string][]byte, error) {
	var agents []*compiler.Agent
	for _, a := range e.prog.Agents {
		if only == "" || a.ID == only {
			agents = append(agents, a)
		}
	}
	docs := make([][]byte, len(agents))
	errs := make([]error, len(agents))
	par.Each(len(agents), 0, func(i int) {
		p, err := render.Render(e.prog, agents[i])
		if err == nil {
			docs[i], err = bundle.AgentJSON(agents[i], p.String())
		}
		errs[i] = err
	})
	out := make(map[string][]byte, len(agents))
	for i, a := range agents {
		if errs[i] != nil {
			return nil, errs[i]
		}
		out[a.ID] = docs[i]
	}
	return out, nil
}

// errorsAt reports that a side of a comparison does not validate.
func errorsAt(g *globals, side string, ds []diag.Diagnostic) error {
	fmt.Fprintf(g.stderr, "%s does not validate:\n", side)
	_ = writeDiagnostics(g, "text", ds)
	fmtErrors(g, ds)
	return findings()
}
