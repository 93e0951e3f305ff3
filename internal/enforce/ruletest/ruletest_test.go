package ruletest_test

import (
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/enforce/ruletest"
	"github.com/charter-dev/charter/internal/testkit/testrepo"
	"github.com/charter-dev/charter/rules"
)

const repo = `package charter

profiles: mine: tool_families: edit: ["Edit"]
profiles: mine: rules: protect: {
	rule:    "Never modify migrations."
	trigger: "edit"
	condition: {type: "contains", field: "file_path", substring: "%s"}
	action:  "block"
}
tests: protect: {
	profile: "mine"
	calls: [{tool: "Edit", args: {file_path: "db/migrations/1.sql", old_string: "a", new_string: "b"}}]
	expect: [{call: 0, fires: [{rule: "protect", action: "block"}]}]
}
tests: other: {
	profile: "mine"
	calls: [{tool: "Edit", args: {file_path: "db/migrations/2.sql", old_string: "a", new_string: "b"}}]
	expect: [{call: 0, fires: []}]
}
`

// TestRunAll runs a repository's tests on it and on another revision
// where the rule no longer fires: the test passes here, and the call whose
// verdict changed is listed.
func TestRunAll(t *testing.T) {
	here := testrepo.Compile(t, testrepo.FS(map[string]string{"a.cue": fmtRepo("migrations/")}))
	there := testrepo.Compile(t, testrepo.FS(map[string]string{"a.cue": fmtRepo("schema/")}))
	runs := ruletest.RunAll(here, ruletest.Options{Filter: regexp.MustCompile("^protect$"), Against: there, AgainstName: "HEAD"})
	if len(runs) != 1 || !runs[0].Passed || runs[0].Profile != "mine" {
		t.Fatalf("runs = %+v, want protect passing", runs)
	}
	want := []ruletest.Change{{Call: 0, Tool: "Edit", Here: []rules.Fire{{Rule: "protect", Action: rules.Block}}, There: []rules.Fire{}}}
	if d := cmp.Diff(want, runs[0].Changed); d != "" {
		t.Errorf("changed (-want +got):\n%s", d)
	}
	all := ruletest.RunAll(here, ruletest.Options{})
	if got := ruletest.Failed(all); got != 1 {
		t.Errorf("Failed = %d, want 1 (other expects nothing to fire)", got)
	}
}

func fmtRepo(substring string) string {
	return regexp.MustCompile(`%s`).ReplaceAllString(repo, substring)
}
