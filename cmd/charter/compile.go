package main

import (
	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/diag"
)

// compiled is a repository that validated and compiled without errors.
type compiled struct {
	Program *compiler.Program
}

// check compiles a repository that validated, and returns the program
// (nil when validation or compilation found an error) and every
// diagnostic of both, sorted. It is the one place that decides whether a
// repository is good enough to compile.
func check(l *loaded) (*compiler.Program, []diag.Diagnostic) {
	ds := l.Diagnostics
	if !l.OK() {
		return nil, ds
	}
	prog, cds := compiler.Compile(l.Repo(), l.Config)
	ds = diag.Sort(append(ds, cds...))
	if s, _ := diag.Max(ds); s == diag.Error {
		return nil, ds
	}
	return prog, ds
}

// compileLoaded compiles a validated repository. When validation or
// compilation finds errors it prints them (text, to stderr) and returns an
// exit-1 error.
func compileLoaded(g *globals, l *loaded) (*compiled, error) {
	prog, ds := check(l)
	if prog == nil {
		_ = writeDiagnostics(g, "text", ds)
		fmtErrors(g, ds)
		return nil, findings()
	}
	return &compiled{Program: prog}, nil
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

// compiledAgent loads and compiles the working tree and finds agent id in it.
func compiledAgent(g *globals, id string) (*compiled, *compiler.Agent, error) {
	l, err := loadWorktree(g)
	if err != nil {
		return nil, nil, err
	}
	c, err := compileLoaded(g, l)
	if err != nil {
		return nil, nil, err
	}
	a, err := c.agentByID(id)
	if err != nil {
		return nil, nil, err
	}
	return c, a, nil
}
