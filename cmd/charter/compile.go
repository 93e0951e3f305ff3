package main

import (
	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/diag"
)

// compiled is a repository that validated and compiled without errors.
type compiled struct {
	*loaded
	Program *compiler.Program
}

// compileLoaded compiles a validated repository. When validation or
// compilation finds errors it prints them (text, to stderr) and returns an
// exit-1 error.
func compileLoaded(g *globals, l *loaded) (*compiled, error) {
	ds := l.Diagnostics
	var prog *compiler.Program
	if l.OK() {
		var cds []diag.Diagnostic
		prog, cds = compiler.Compile(l.Repo(), l.Config)
		ds = diag.Sort(append(ds, cds...))
	}
	if s, any := diag.Max(ds); any && s == diag.Error {
		_ = writeDiagnostics(g, "text", ds)
		fmtErrors(g, ds)
		return nil, findings()
	}
	return &compiled{loaded: l, Program: prog}, nil
}

// agentByID finds a compiled agent or says which ids exist.
func (c *compiled) agentByID(id string) (*compiler.Agent, error) {
	for _, a := range c.Program.Agents {
		if a.ID == id {
			return a, nil
		}
	}
	var ids []string
	for _, a := range c.Program.Agents {
		ids = append(ids, a.ID)
	}
	return nil, unknownName("agent", id, ids)
}
