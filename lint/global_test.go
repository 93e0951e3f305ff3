package lint_test

import (
	"maps"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/testkit/gen"
	"github.com/charter-dev/charter/lint"
)

// TestStandIns: the rules of lint.Global find the same over agents' stand-ins
// (AgentFacts, what the lint cache keeps of an agent) as over the agents,
// on every lint test repository and a generated one: those rules read
// nothing of an agent that the facts leave out.
func TestStandIns(t *testing.T) {
	dirs, _ := filepath.Glob("../testdata/lint/*")
	generated := t.TempDir()
	if err := gen.Write(generated, 60); err != nil {
		t.Fatal(err)
	}
	dirs = append(dirs, generated, "../examples/dev-team")
	checked, found := 0, 0
	for _, dir := range dirs {
		rev, err := new(revision.Evaluator).EvaluateFS(os.DirFS(dir), dir)
		if err != nil {
			t.Fatal(err)
		}
		prog := rev.Program
		if prog == nil {
			continue
		}
		stand := *prog
		cfg := *prog.Config
		cfg.Agents = maps.Clone(cfg.Agents)
		stand.Agents = nil
		for _, a := range prog.Agents {
			sa, decl, ok := lint.FactsOf(a).StandIn(prog)
			if !ok {
				t.Fatalf("%s: no stand-in for %s", dir, a.ID)
			}
			stand.Agents = append(stand.Agents, sa)
			cfg.Agents[a.ID] = decl
		}
		stand.Config = &cfg
		files := rev.Validation.Repo().Files
		want, err := lint.Run(prog, files, lint.Options{Subset: lint.Global()})
		if err != nil {
			t.Fatal(err)
		}
		got, err := lint.Run(prog, files, lint.Options{Subset: lint.Global(), Global: &stand})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s: the global rules over stand-ins (-agents +stand-ins):\n%s", filepath.Base(dir), d)
		}
		checked++
		found += len(want)
	}
	if checked < 3 || found == 0 {
		t.Fatalf("%d repositories checked, %d findings: the test judges nothing", checked, found)
	}
}
