package revision_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/repo/source/sourcetest"
)

const good = "package charter\n\nagents: ann: {name: \"Ann\", type: \"personal_assistant\", model: {provider: \"openai\", model_id: \"gpt-4o\"}}\n"
const bad = "package charter\n\nagents: ann: {name: \"Ann\", type: \"no_such_type\", model: {provider: \"openai\", model_id: \"gpt-4o\"}}\n"

// TestEvaluate reads the working tree, the index and commits of one
// repository, each a different content, and checks what each says.
func TestEvaluate(t *testing.T) {
	sourcetest.NeedGit(t)
	r := sourcetest.New(t)
	r.Write("config/a.cue", good)
	head := r.Commit("good")
	r.Write("config/a.cue", bad)
	r.Git("add", "-A") // the index does not validate
	r.Write("config/a.cue", good+"agents: bob: {name: \"Bob\", type: \"personal_assistant\", model: {provider: \"openai\", model_id: \"gpt-4o\"}}\n")
	dir := filepath.Join(r.Dir, "config")
	var ev revision.Evaluator

	type summary struct {
		Name   string
		OK     bool
		Agents int
		Rules  []string
		Commit string
	}
	sum := func(rev *revision.Revision) summary {
		s := summary{Name: rev.Name, OK: rev.OK()}
		if rev.OK() {
			s.Agents = len(rev.Program.Agents)
		}
		for _, d := range rev.Diagnostics {
			s.Rules = append(s.Rules, d.Rule)
		}
		if rev.Commit != nil {
			s.Commit = rev.Commit.Hash
		}
		return s
	}
	tests := []struct {
		src  revision.Source
		want summary
	}{
		{revision.Source{Dir: dir}, summary{Name: dir, OK: true, Agents: 2}},
		{revision.Source{Dir: dir, Name: "the working tree"}, summary{Name: "the working tree", OK: true, Agents: 2}},
		{revision.Source{Dir: dir, Staged: true}, summary{Name: dir + " (staged)", Rules: []string{"reference"}}},
		{revision.Source{Dir: dir, Rev: "HEAD"}, summary{Name: "HEAD", OK: true, Agents: 1, Commit: head}},
	}
	for _, tt := range tests {
		rev, err := ev.Evaluate(tt.src)
		if err != nil {
			t.Errorf("%+v: %v", tt.src, err)
			continue
		}
		if d := cmp.Diff(tt.want, sum(rev)); d != "" {
			t.Errorf("%+v (-want +got):\n%s", tt.src, d)
		}
		if !rev.OK() && rev.Program != nil {
			t.Errorf("%+v: a revision that is not OK has a program", tt.src)
		}
	}
}

// TestEvaluateErrors: what cannot be read at all is a *revision.Error,
// with a hint where there is one to give.
func TestEvaluateErrors(t *testing.T) {
	var ev revision.Evaluator
	tests := []struct {
		src      revision.Source
		wantHint bool
	}{
		{revision.Source{Dir: filepath.Join(t.TempDir(), "missing")}, true},
		{revision.Source{Dir: t.TempDir()}, false}, // no .cue files
		{revision.Source{Dir: t.TempDir(), Rev: "HEAD", Staged: true}, false},
		{revision.Source{Dir: t.TempDir(), Rev: "HEAD"}, false}, // not a Git repository
	}
	for _, tt := range tests {
		_, err := ev.Evaluate(tt.src)
		var re *revision.Error
		if !errors.As(err, &re) {
			t.Errorf("%+v: err = %v, want a *revision.Error", tt.src, err)
			continue
		}
		if (re.Hint != "") != tt.wantHint {
			t.Errorf("%+v: hint %q", tt.src, re.Hint)
		}
	}
}

// TestDeclaredAgents lists agents without validating: a repository with
// errors answers too.
func TestDeclaredAgents(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.cue"), []byte(bad+"agents: zed: {type: \"personal_assistant\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := new(revision.Evaluator).DeclaredAgents(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []revision.Declared{{ID: "ann", Name: "Ann"}, {ID: "zed"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("DeclaredAgents (-want +got):\n%s", d)
	}
}
