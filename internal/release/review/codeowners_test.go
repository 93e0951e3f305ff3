package review

import (
	"bytes"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hmarr/codeowners"
)

// TestCodeOwnersParsed reads the file charter codeowners writes with
// hmarr/codeowners, the parser GitHub-style tooling uses (it follows
// GitHub's rules: the last matching line wins), and checks who owns each
// file.
func TestCodeOwnersParsed(t *testing.T) {
	c := config()
	decls := []Declaration{
		{What: "agents.coder", File: "config/agents/team one/coder.cue", Owners: c.Approvers("coder")},
		{What: "agents.tester", File: "config/agents/team one/coder.cue", Owners: c.Approvers("tester")},
		{What: "agents.intern", File: "config/agents/intern.cue", Owners: c.Approvers("intern")},
		{What: "profiles.strict", File: "config/profiles.cue", Owners: c.ProfileOwners("strict")},
		{What: "agents.odd", File: "config/agents/#odd[1].cue", Owners: []string{"@x"}},
	}
	co := BuildCodeOwners(c, "config", decls)
	var b bytes.Buffer
	if err := co.Write(&b); err != nil {
		t.Fatal(err)
	}
	rules, err := codeowners.ParseFile(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatalf("hmarr/codeowners refuses the file: %v\n%s", err, b.String())
	}
	for file, want := range map[string][]string{
		"config/agents/team one/coder.cue": {"@lee", "@acme/leads", "@acme/workers"},
		"config/agents/intern.cue":         {"@kim", "boss@example.com"},
		"config/profiles.cue":              {"@sec"},
		"config/people.cue":                {"@acme/platform"},
		"README.md":                        nil,
	} {
		r, err := rules.Match(file)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		if r != nil {
			for _, o := range r.Owners {
				got = append(got, o.String())
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("owners of %s (-want +got):\n%s\n%s", file, d, b.String())
		}
	}
	if d := cmp.Diff([]string{"config/agents/#odd[1].cue"}, co.Skipped); d != "" {
		t.Errorf("skipped (-want +got):\n%s", d)
	}
}
