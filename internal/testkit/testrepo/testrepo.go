// Package testrepo evaluates a charter repository for tests, through
// package revision, failing the test on any error.
package testrepo

import (
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/output/diag"
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
	rev := Evaluate(t, fsys)
	if !rev.OK() {
		for _, d := range rev.Diagnostics {
			t.Log(d)
		}
		t.Fatal("the test repository has errors")
	}
	return rev.Validation.Repo(), rev.Program
}

// Diagnostics loads, validates and compiles fsys and returns every
// diagnostic (compiling only when validation succeeds).
func Diagnostics(t testing.TB, fsys fs.FS) []diag.Diagnostic {
	t.Helper()
	return Evaluate(t, fsys).Diagnostics
}

// Evaluate evaluates fsys as package revision does, failing t when it
// cannot be read at all.
func Evaluate(t testing.TB, fsys fs.FS) *revision.Revision {
	t.Helper()
	rev, err := new(revision.Evaluator).EvaluateFS(fsys, "test")
	if err != nil {
		t.Fatal(err)
	}
	return rev
}
