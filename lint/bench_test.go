package lint_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/config/validate"
	"github.com/charter-dev/charter/internal/testkit/realtool"
	"github.com/charter-dev/charter/lint"
)

// genRepo writes a repository of n agents, one file each, spread over a few
// agent types, presets, profiles and behaviors, with reporting chains and
// delegation, personalities, skills and models: what a large organisation's
// repository looks like to lint. It is valid, so every rule runs.
func genRepo(n int) fstest.MapFS {
	fsys := fstest.MapFS{
		"cue.mod/module.cue": {Data: []byte("module: \"example.com/gen\"\nlanguage: version: \"v0.17.0\"\n")},
		"types.cue": {Data: []byte(`package charter

agentTypes: worker: {
	name: "Worker"
	presets: ["conservative"]
	system_prompt: """
		You are {agent.name}, {agent.role} in {agent.department}.
		You are helping {user_name}; the time is {current_time}.
		"""
	variables: {
		user_name: {required: true}
		current_time: {required: true}
	}
}

profiles: team: {
	extends: "coding"
	rules: review: {trigger: "write_file", action: "remind", message: "Ask a colleague to review the change."}
}
`)},
	}
	behaviors := []string{
		`{type: "HierarchicalContextBehavior"}, {type: "FileToolsBehavior"}`,
		`{type: "CompactWhenNearFullBehavior"}, {type: "CommandToolsBehavior"}, {type: "FileToolsBehavior"}`,
		`{type: "SubAgentContextBehavior"}, {type: "FileToolsBehavior"}`,
	}
	models := []string{"claude-sonnet-4", "gpt-4o", "example-medium-001"}
	styles := []string{"independent", "pair", "team"}
	conflicts := []string{"collaborate", "compromise", "accommodate"}
	for i := range n {
		id := fmt.Sprintf("agent-%04d", i)
		var auth strings.Builder
		budget := 100000 / (1 + i/50)
		fmt.Fprintf(&auth, "budget_limit: %d", budget)
		if i > 0 {
			fmt.Fprintf(&auth, ", reports_to: %q", fmt.Sprintf("agent-%04d", (i-1)/10))
		}
		ignore := ""
		if i*10+1 < n {
			fmt.Fprintf(&auth, ", can_delegate_to: [%q]", fmt.Sprintf("agent-%04d", i*10+1))
			ignore = "// charter:ignore delegation-widens a lead hands work to its reports, whose tools are the point\n\t"
		}
		src := fmt.Sprintf(`package charter

agents: %q: {
	name: "Agent %d"
	role: "Engineer"
	department: "Dept %d"
	type: "worker"
	profile: "team"
	behaviors: [%s]
	behavior: communication: verbosity: "concise"
	personality: {
		traits: ["careful", "curious"]
		collaboration: %q
		conflict_approach: %q
		openness: 0.%d
		conscientiousness: 0.8
		extraversion: 0.%d
		agreeableness: 0.7
		stress_response: 0.6
	}
	skills: primary: [{id: "skill-%d", name: "Skill %d", description: "Does thing %d well.", tags: ["work"], proficiency: 0.8}]
	model: {provider: "p", model_id: %q, temperature: 0.3, max_tokens: 2000}
	tools: denied: ["list_dir"]
	%sauthority: {%s}
}
`, id, i, i%20, behaviors[i%len(behaviors)], styles[i%3], conflicts[i%3], 3+i%6, 2+i%7, i%40, i%40, i, models[i%len(models)], ignore, auth.String())
		fsys[fmt.Sprintf("agents/%s.cue", id)] = &fstest.MapFile{Data: []byte(src)}
	}
	return fsys
}

// prepare loads, validates and compiles a generated repository.
func prepare(b *testing.B, n int) (*load.Repo, *compiler.Program) {
	b.Helper()
	rev, err := new(revision.Evaluator).EvaluateFS(genRepo(n), "gen")
	if err != nil {
		b.Fatal(err)
	}
	if ds := rev.Diagnostics; len(ds) > 0 {
		b.Fatalf("generated repository does not compile cleanly:\n%s", lines(ds[:min(len(ds), 10)]))
	}
	return rev.Validation.Repo(), rev.Program
}

// BenchmarkLint2000 times lint.Run (every rule, prompts rendered, ignores
// read) over a compiled 2,000-agent repository; loading, validation and
// compilation happen once, outside the timer.
func BenchmarkLint2000(b *testing.B) {
	repo, prog := prepare(b, 2000)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		ds, err := lint.Run(prog, repo.Files, lint.Options{})
		if err != nil {
			b.Fatal(err)
		}
		_ = ds
	}
}

// BenchmarkGlobal10000 times the rules of lint.Global over a compiled
// 10,000-agent repository: the editor runs them over every agent after
// each edit, so their cost per agent is paid on every keystroke.
func BenchmarkGlobal10000(b *testing.B) {
	repo, prog := prepare(b, 10000)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := lint.Run(prog, repo.Files, lint.Options{Subset: lint.Global()}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidate2000 times what charter validate does on the same
// repository (load and validate), the baseline BenchmarkLint2000 is
// compared with.
func BenchmarkValidate2000(b *testing.B) {
	fsys := genRepo(2000)
	b.ReportAllocs()
	for b.Loop() {
		repo, _, err := load.Load(fsys, "gen")
		if err != nil {
			b.Fatal(err)
		}
		validate.Run(repo)
	}
}

// BenchmarkCompile2000 times compilation, which lint adds to validate
// before its rules run.
func BenchmarkCompile2000(b *testing.B) {
	repo, prog := prepare(b, 2000)
	b.ReportAllocs()
	for b.Loop() {
		compiler.Compile(repo, prog.Config)
	}
}

func TestGeneratedRepoLintsClean(t *testing.T) {
	realtool.Long(t, "generates and evaluates a repository")
	rev, err := new(revision.Evaluator).EvaluateFS(genRepo(60), "gen")
	if err != nil {
		t.Fatal(err)
	}
	if !rev.OK() {
		t.Fatalf("does not validate or compile:\n%s", lines(rev.Diagnostics))
	}
	found, err := lint.Run(rev.Program, rev.Validation.Repo().Files, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) > 0 {
		t.Errorf("%d findings, want none:\n%s", len(found), lines(found[:min(len(found), 20)]))
	}
}
