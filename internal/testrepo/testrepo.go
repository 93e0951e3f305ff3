// Package testrepo loads, validates and compiles a charter repository for
// tests, failing the test on any error.
package testrepo

import (
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/diag"
	"github.com/charter-dev/charter/load"
	"github.com/charter-dev/charter/validate"
)

// FS returns a file system of the given files (path -> content).
func FS(files map[string]string) fs.FS {
	m := fstest.MapFS{}
	for p, c := range files {
		m[p] = &fstest.MapFile{Data: []byte(c), Mode: 0o644}
	}
	return m
}

// Compile loads, validates and compiles fsys, failing t on any error.
func Compile(t testing.TB, fsys fs.FS) *compiler.Program {
	t.Helper()
	_, prog := Load(t, fsys)
	return prog
}

// Load is Compile that also returns the loaded repository.
func Load(t testing.TB, fsys fs.FS) (*load.Repo, *compiler.Program) {
	t.Helper()
	repo, prog, ds := run(t, fsys)
	if s, any := diag.Max(ds); any && s == diag.Error || prog == nil {
		for _, d := range ds {
			t.Log(d)
		}
		t.Fatal("the test repository has errors")
	}
	return repo, prog
}

// Diagnostics loads, validates and compiles fsys and returns every
// diagnostic (compiling only when validation succeeds).
func Diagnostics(t testing.TB, fsys fs.FS) []diag.Diagnostic {
	t.Helper()
	_, _, ds := run(t, fsys)
	return ds
}

func run(t testing.TB, fsys fs.FS) (*load.Repo, *compiler.Program, []diag.Diagnostic) {
	t.Helper()
	repo, ds, err := load.Load(fsys, "test")
	if err != nil {
		t.Fatal(err)
	}
	res := validate.Run(repo)
	ds = append(ds, res.Diagnostics...)
	var prog *compiler.Program
	if res.OK() {
		var cds []diag.Diagnostic
		prog, cds = compiler.Compile(repo, res.Config)
		ds = append(ds, cds...)
	}
	return repo, prog, diag.Sort(ds)
}
