package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/repo/source/sourcetest"
)

// logRun is what one run of charter printed.
type logRun struct {
	Code           int
	Stdout, Stderr string
}

func runCharter(t *testing.T, args []string) logRun {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return logRun{code, stdout.String(), stderr.String()}
}

// TestLogScopeGrows: when an agent's files do not validate on their own
// (a test names another agent), the agent's scope grows by that agent's
// file, and no further: a commit where an agent nobody mentions does not
// validate is still a version, one where the mentioned agent does not
// validate is skipped.
func TestLogScopeGrows(t *testing.T) {
	r := sourcetest.New(t)
	agent := func(id, model string) string {
		return fmt.Sprintf("agents: %s: {name: %q, type: \"personal_assistant\", model: {provider: \"p\", model_id: %q}}\n", id, id, model)
	}
	const broken = "agents: %s: {name: 1}\n"
	r.Write("config/tests.cue", `tests: t1: {agent: "b", calls: [{tool: "Read", args: {file_path: "/x"}}], expect: [{call: 0, fires: []}]}`+"\n",
		"config/a.cue", agent("a", "m1"), "config/b.cue", agent("b", "m1"), "config/c.cue", agent("c", "m1"))
	r.Commit("1: all valid")
	r.Write("config/a.cue", agent("a", "m2"))
	r.Commit("2: a changes")
	r.Write("config/c.cue", fmt.Sprintf(broken, "c"))
	r.Commit("3: c does not validate")
	r.Write("config/a.cue", agent("a", "m3"))
	r.Commit("4: a changes")
	r.Write("config/b.cue", fmt.Sprintf(broken, "b"))
	r.Commit("5: b does not validate")
	r.Write("config/a.cue", agent("a", "m4"))
	r.Commit("6: a changes")
	{
		got := runCharter(t, []string{"-C", filepath.Join(r.Dir, "config"), "log", "a"})
		var subjects []string
		for _, line := range strings.Split(got.Stdout, "\n") {
			if strings.HasPrefix(line, "    ") && strings.Contains(line, ": ") && !strings.Contains(line, "hash") && !strings.Contains(line, "(not verified)") {
				subjects = append(subjects, strings.TrimSpace(line))
			}
		}
		want := []string{"4: a changes", "2: a changes", "1: all valid"}
		if d := cmp.Diff(want, subjects); d != "" {
			t.Errorf("versions (-want +got):\n%s\n%s", d, got.Stdout)
		}
		if !strings.Contains(got.Stderr, "skipped 2 commit(s)") {
			t.Errorf("stderr %q, want 2 commits skipped", got.Stderr)
		}
	}
}
