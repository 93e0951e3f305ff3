package compiler_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/testkit/testrepo"
)

// TestAccessLevels holds the table of docs/rules.md section 0: what each
// access level admits of FileToolsBehavior (read_file, list_dir, and
// write_file, which is destructive), with and without tools.allowed.
func TestAccessLevels(t *testing.T) {
	cases := []struct {
		id, tools string
		want      string // the effective tools; then each exclusion's field
	}{
		{"none", ``, "[list_dir read_file write_file] []"},
		{"custom", `access_level: "custom"`, "[list_dir read_file write_file] []"},
		{"elevated", `access_level: "elevated"`, "[list_dir read_file write_file] []"},
		{"standard", `access_level: "standard"`, "[list_dir read_file] [tools.access_level]"},
		{"standard_named", `access_level: "standard", allowed: ["read_file", "write_file"]`, "[read_file write_file] [tools.allowed]"},
		{"restricted", `access_level: "restricted"`, "[] [tools.access_level tools.access_level tools.access_level]"},
		{"restricted_named", `access_level: "restricted", allowed: ["read_file", "write_file"]`, "[read_file write_file] [tools.allowed]"},
		{"sandboxed_named", `access_level: "sandboxed", allowed: ["read_file", "write_file"]`, "[read_file] [tools.allowed tools.access_level]"},
		{"denied", `denied: ["write_file"]`, "[list_dir read_file] [tools.denied]"},
		{"both", `allowed: ["read_file", "write_file"], denied: ["write_file"]`, "[read_file] [tools.allowed tools.denied]"},
	}
	src := "package charter\nagentTypes: t: {name: \"T\", system_prompt: \"I am {agent.name}.\"}\n"
	for _, c := range cases {
		src += fmt.Sprintf("agents: %s: {name: %q, type: \"t\", behaviors: [{type: \"FileToolsBehavior\"}], tools: {%s}}\n", c.id, c.id, c.tools)
	}
	prog := testrepo.Compile(t, testrepo.FS(map[string]string{"a.cue": src}))
	got, want := map[string]string{}, map[string]string{}
	for _, a := range prog.Agents {
		var by []string
		for _, e := range a.Excluded {
			by = append(by, e.By)
			if e.Pos.Line == 0 {
				t.Errorf("%s: exclusion of %s has no position", a.ID, e.Name)
			}
		}
		got[a.ID] = fmt.Sprint(a.EffectiveNames(), by)
	}
	for _, c := range cases {
		want[c.id] = c.want
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}
