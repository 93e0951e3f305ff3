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

// DelegationTeam is a repository in which delegation matters, for the
// tests of the delegation check (judge's and serve's): loner may start
// no one, lead may start the reviewers role's members (rev), rev may
// start junior, and ops_bot runs commands.
var DelegationTeam = map[string]string{"a.cue": `package charter

agentTypes: helper: {name: "Helper", system_prompt: "You are {agent.name}."}
agents: lead: {name: "Lead", type: "helper", behaviors: [{type: "FileToolsBehavior"}, {type: "DelegationBehavior"}]
	authority: can_delegate_to: ["reviewers"]}
agents: rev: {name: "Rev", type: "helper", behaviors: [{type: "FileToolsBehavior"}, {type: "DelegationBehavior"}]
	authority: can_delegate_to: ["junior"]}
agents: junior: {name: "Junior", type: "helper", behaviors: [{type: "FileToolsBehavior"}]}
agents: ops_bot: {name: "Ops", type: "helper", behaviors: [{type: "FileToolsBehavior"}, {type: "CommandToolsBehavior"}]}
agents: loner: {name: "Loner", type: "helper", behaviors: [{type: "FileToolsBehavior"}, {type: "DelegationBehavior"}]}
roles: reviewers: {description: "Reviewers.", members: ["rev"]}
`}
