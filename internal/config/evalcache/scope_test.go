package evalcache_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/charter-dev/charter/internal/config/evalcache"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/testkit/gen"
)

// TestEditsBeyondTheStrings: edits whose reach the strings of the files
// do not tell (a package clause, a reference to another agent, an agent
// declared in part by a file that declares more) give through the cache
// what a fresh lint gives.
func TestEditsBeyondTheStrings(t *testing.T) {
	rewrite := func(t *testing.T, root, rel, old, new string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		b, err := os.ReadFile(p)
		re := regexp.MustCompile(old)
		if err != nil || !re.Match(b) {
			t.Fatalf("%s: no %q (%v)", rel, old, err)
		}
		if err := os.WriteFile(p, re.ReplaceAll(b, []byte(new)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name      string
		base, now func(t *testing.T, root string)
	}{
		{"the first file's package clause", nil, func(t *testing.T, root string) {
			rewrite(t, root, "agents/a0000.cue", `package charter`, `package other`)
		}},
		{"a reference to an agent added", nil, func(t *testing.T, root string) {
			rewrite(t, root, "agents/a0003.cue", `role: +"[^"]*"`, `role: agents.a0012.role`)
		}},
		{"the agent a reference reads edited", func(t *testing.T, root string) {
			rewrite(t, root, "agents/a0003.cue", `budget_limit: \d+`, `budget_limit: agents.a0012.authority.budget_limit`)
			rewrite(t, root, "agents/a0012.cue", `budget_limit: \d+`, `budget_limit: 1`)
		}, func(t *testing.T, root string) {
			rewrite(t, root, "agents/a0012.cue", `budget_limit: \d+`, `budget_limit: 100000`)
		}},
		{"an agent declared in part by another file", func(t *testing.T, root string) {
			rewrite(t, root, "profiles.cue", `$`, "\nagents: a0019: status: \"active\"\n")
		}, func(t *testing.T, root string) {
			rewrite(t, root, "agents/a0001.cue", `budget_limit: \d+`, `budget_limit: 7`)
		}},
		{"a new agent of a role's name", func(t *testing.T, root string) {
			rewrite(t, root, "profiles.cue", `$`, "\nroles: boss: {}\n")
			rewrite(t, root, "agents/a0005.cue", `reports_to: "[^"]*"`, `reports_to: "boss"`)
			rewrite(t, root, "agents/a0005.cue", `budget_limit: \d+`, `budget_limit: 500`)
		}, func(t *testing.T, root string) {
			b, err := os.ReadFile(filepath.Join(root, "agents/a0001.cue"))
			if err != nil {
				t.Fatal(err)
			}
			b = regexp.MustCompile(`agents: a0001`).ReplaceAll(b, []byte("agents: boss"))
			b = regexp.MustCompile(`budget_limit: \d+`).ReplaceAll(b, []byte("budget_limit: 1"))
			b = regexp.MustCompile(`reports_to: "[^"]*"`).ReplaceAll(b, []byte(`reports_to: "a0000"`))
			if err := os.WriteFile(filepath.Join(root, "agents/boss.cue"), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		// Names no string of the files shows: the base is opaque.
		{"a flow step's agent embedded in a struct", func(t *testing.T, root string) {
			rewrite(t, root, "profiles.cue", `$`, "\nflows: f: steps: [{name: \"s\", agent: {\"a00\" + \"12\"}}]\n")
		}, func(t *testing.T, root string) {
			rewrite(t, root, "agents/a0003.cue", `budget_limit: \d+`, `budget_limit: 7`)
		}},
		{"a flow step's agent under a computed label", func(t *testing.T, root string) {
			rewrite(t, root, "profiles.cue", `$`, "\nflows: f: steps: [{name: \"s\", (\"agent\"): \"a00\" + \"12\"}]\n")
		}, func(t *testing.T, root string) {
			rewrite(t, root, "agents/a0003.cue", `budget_limit: \d+`, `budget_limit: 7`)
		}},
		{"a flow step's agent in a raw string", func(t *testing.T, root string) {
			rewrite(t, root, "profiles.cue", `$`, "\nflows: f: steps: [{name: \"s\", agent: #\"a0012\"#}]\n")
		}, func(t *testing.T, root string) {
			rewrite(t, root, "agents/a0003.cue", `budget_limit: \d+`, `budget_limit: 7`)
		}},
		{"a flow step's agent in a multi-line string", func(t *testing.T, root string) {
			rewrite(t, root, "profiles.cue", `$`, "\nflows: f: steps: [{name: \"s\", agent: \"\"\"\n\ta0012\n\t\"\"\"}]\n")
		}, func(t *testing.T, root string) {
			rewrite(t, root, "agents/a0003.cue", `budget_limit: \d+`, `budget_limit: 7`)
		}},
		{"a manager named by a definition's string", func(t *testing.T, root string) {
			rewrite(t, root, "profiles.cue", `$`, "\n#Under12: reports_to: \"a0012\"\n")
			rewrite(t, root, "agents/a0019.cue", `reports_to: "[^"]*"`, `#Under12`)
			rewrite(t, root, "agents/a0019.cue", `budget_limit: \d+`, `budget_limit: 50`)
			rewrite(t, root, "agents/a0012.cue", `budget_limit: \d+`, `budget_limit: 90`)
		}, func(t *testing.T, root string) {
			rewrite(t, root, "agents/a0012.cue", `budget_limit: \d+`, `budget_limit: 5`)
		}},
		{"a manager named by a pattern", func(t *testing.T, root string) {
			rewrite(t, root, "profiles.cue", `$`, "\nagents: [=~\"^a0019$\"]: authority: reports_to: \"a0012\"\n")
			rewrite(t, root, "agents/a0019.cue", `reports_to: "[^"]*"`, ``)
			rewrite(t, root, "agents/a0019.cue", `budget_limit: \d+`, `budget_limit: 50`)
			rewrite(t, root, "agents/a0012.cue", `budget_limit: \d+`, `budget_limit: 90`)
		}, func(t *testing.T, root string) {
			rewrite(t, root, "agents/a0012.cue", `budget_limit: \d+`, `budget_limit: 5`)
		}},
		{"a role's member renamed", func(t *testing.T, root string) {
			rewrite(t, root, "profiles.cue", `$`, "\nroles: crew: members: [\"a0005\"]\n")
		}, func(t *testing.T, root string) {
			rewrite(t, root, "agents/a0005.cue", `agents: a0005`, `agents: zed`)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evalcache.SetMaxScope(1)
			defer evalcache.SetMaxScope(4)
			root, cache := t.TempDir(), t.TempDir()
			if err := gen.Write(root, 20); err != nil {
				t.Fatal(err)
			}
			if tc.base != nil {
				tc.base(t, root)
			}
			src := revision.Source{Dir: root}
			if out, err := evalcache.Lint(src, evalcache.Options{Dir: cache}); err != nil || !out.OK {
				t.Fatalf("the base: %v %v", err, out.Diags)
			}
			tc.now(t, root)
			sameAsFresh(t, src, cache, "the edit")
		})
	}
}

// TestRoleMembers: an agent that delegates to a role is judged by the
// role's members (delegation-widens); an edit of a member, or of the
// delegator, gives through the cache what a fresh lint gives.
func TestRoleMembers(t *testing.T) {
	evalcache.SetMaxScope(1)
	defer evalcache.SetMaxScope(4)
	root, cache := t.TempDir(), t.TempDir()
	write := func(rel, src string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, rel), []byte("package charter\n\n"+src+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("types.cue", `agentTypes: helper: {name: "Helper", description: "Helps.", system_prompt: "You are {agent.name}."}
roles: crew: members: ["bo"]`)
	ana := `agents: ana: {name: "%s", type: "helper", behaviors: [{type: "DelegationBehavior"}], authority: can_delegate_to: ["crew"]}`
	bo := `agents: bo: {name: "Bo", type: "helper", behaviors: [{type: "%s"}]}`
	write("ana.cue", fmt.Sprintf(ana, "Ana"))
	write("bo.cue", fmt.Sprintf(bo, "FileToolsBehavior"))
	for _, n := range []string{"cy", "di", "ed", "fa"} {
		write(n+".cue", fmt.Sprintf(`agents: %s: {name: "X", type: "helper"}`, n))
	}
	src := revision.Source{Dir: root}
	for i, edit := range []func(){
		func() {},
		func() { write("bo.cue", fmt.Sprintf(bo, "CommandToolsBehavior")) }, // bo widens ana's delegation
		func() { write("ana.cue", fmt.Sprintf(ana, "Anna")) },
		func() { write("bo.cue", fmt.Sprintf(bo, "FileToolsBehavior")) },
	} {
		edit()
		if log := sameAsFresh(t, src, cache, fmt.Sprintf("edit %d", i)); i > 0 && !strings.Contains(log, "redid") {
			t.Errorf("edit %d: %s, want an incremental evaluation", i, log)
		}
	}
}

// sameAsFresh lints src through cache and afresh, fails the test when the
// outcomes differ, and returns what the cache said it reused.
func sameAsFresh(t *testing.T, src revision.Source, cache, step string) string {
	t.Helper()
	var log bytes.Buffer
	got, err := evalcache.Lint(src, evalcache.Options{Dir: cache, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	want, err := evalcache.Lint(src, evalcache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("%s: lint through the cache differs from a fresh lint (-fresh +cached):\n%s\ncache: %s", step, d, log.String())
	}
	return log.String()
}
