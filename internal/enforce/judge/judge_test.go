package judge

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/artifact/bundlefile"
	"github.com/charter-dev/charter/internal/canonjson"
	"github.com/charter-dev/charter/internal/enforce/judge/fromprogram"
	"github.com/charter-dev/charter/internal/testkit/testrepo"
	"github.com/charter-dev/charter/rules"
)

// edit returns tree with rel set to b (removed for nil), and, when
// remanifest is set, manifest.json rewritten to match: an unsigned
// bundle forged whole.
func edit(t *testing.T, tree bundlefile.Tree, rel string, b []byte, remanifest bool) *bundlefile.Runtime {
	t.Helper()
	out := bundlefile.Tree{}
	for p, c := range tree {
		out[p] = c
	}
	if b == nil {
		delete(out, rel)
	} else {
		out[rel] = b
	}
	m, err := bundlefile.ParseManifest(out["manifest.json"])
	if err != nil {
		t.Fatal(err)
	}
	if remanifest {
		m.Files = m.Files[:0]
		for _, p := range out.Paths() {
			if p != "manifest.json" {
				sum := sha256.Sum256(out[p])
				m.Files = append(m.Files, bundlefile.File{Path: p, SHA256: hex.EncodeToString(sum[:]), Size: len(out[p])})
			}
		}
		if out["manifest.json"], err = canonjson.Pretty(m); err != nil {
			t.Fatal(err)
		}
	}
	return bundlefile.TreeRuntime(out, m, "dist")
}

// verdict says which agent a call from agentType in main's session is
// judged as, or why none.
func verdict(j *Judge, main, agentType string) string {
	e, _, err := j.Source(main, "", "claude-code")(agentType)
	var nd *rules.NotDelegatedError
	switch {
	case errors.As(err, &nd):
		return "not delegated"
	case err != nil:
		return "error: " + err.Error()
	}
	for _, id := range j.loader.AgentIDs() {
		if o, err := j.Engine(id, "", "claude-code"); err == nil && o == e {
			return id
		}
	}
	return "an engine of no agent"
}

// TestDelegationWalk: the walk over delegation.json gives the verdicts
// the agent.json files gave (a bundle an older charter built, without
// the file) and the repository built in memory gives.
func TestDelegationWalk(t *testing.T) {
	prog := testrepo.Compile(t, testrepo.FS(testrepo.DelegationTeam))
	tree, err := bundle.Build(prog, bundle.Options{CharterVersion: "test", CUEVersion: "v0"})
	if err != nil {
		t.Fatal(err)
	}
	judges := map[string]*Judge{
		"graph":   New(Bundle{R: edit(t, tree, "", nil, false)}, rules.OnErrorDeny),
		"no file": New(Bundle{R: edit(t, tree, bundlefile.DelegationFile, nil, true)}, rules.OnErrorDeny),
		"program": New(fromprogram.Loader{P: prog}, rules.OnErrorDeny),
	}
	calls := [][2]string{{"lead", ""}, {"lead", "rev"}, {"lead", "junior"}, {"lead", "ops-bot"}, {"lead", "loner"},
		{"rev", "junior"}, {"rev", "lead"}, {"loner", "ops_bot"}, {"loner", "general-purpose"}, {"junior", "rev"}}
	want := []string{"lead", "rev", "junior", "not delegated", "not delegated", "junior", "not delegated", "not delegated", "loner", "not delegated"}
	for name, j := range judges {
		var got []string
		for _, c := range calls {
			got = append(got, verdict(j, c[0], c[1]))
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: verdicts (-want +got):\n%s", name, diff)
		}
	}
}

// TestDelegationForged: a delegation.json widened after the build is
// refused. With the manifest left alone, by its hash; with an unsigned
// manifest rewritten to match, by the agent.json files a call reads
// anyway: the session's agent's and the subagent's.
func TestDelegationForged(t *testing.T) {
	tree, err := bundle.Build(testrepo.Compile(t, testrepo.FS(testrepo.DelegationTeam)), bundle.Options{CharterVersion: "test", CUEVersion: "v0"})
	if err != nil {
		t.Fatal(err)
	}
	widen := func(old, new string) []byte {
		s := string(tree[bundlefile.DelegationFile])
		w := strings.Replace(s, old, new, 1)
		if w == s {
			t.Fatalf("delegation.json holds no %s", old)
		}
		return []byte(w)
	}
	for _, tc := range []struct {
		name       string
		file       []byte
		remanifest bool
		main, from string
		want       string
	}{
		{"deep, manifest left alone", widen(`"junior": []`, `"junior": ["ops_bot"]`), false, "lead", "ops-bot",
			"error: reading who lead may start: agent lead: the bundle does not match its manifest: delegation.json has"},
		{"first step, manifest rewritten", widen(`"loner": []`, `"loner": ["ops_bot"]`), true, "loner", "ops-bot",
			"error: reading who loner may start: agent loner: its agent.json says it may start no other agent, the bundle's delegation graph (delegation.json) says ops_bot"},
		{"the subagent's own, manifest rewritten", widen(`"junior": []`, `"junior": ["ops_bot"]`), true, "lead", "junior",
			"error: agent junior: its agent.json says it may start no other agent, the bundle's delegation graph (delegation.json) says ops_bot"},
		{"the main thread, manifest rewritten", widen(`"loner": []`, `"loner": ["ops_bot"]`), true, "loner", "",
			"error: agent loner: its agent.json says it may start no other agent"},
		{"gone, still listed", nil, false, "lead", "junior",
			"error: reading who lead may start: agent lead: the bundle does not match its manifest: delegation.json cannot be read"},
	} {
		j := New(Bundle{R: edit(t, tree, bundlefile.DelegationFile, tc.file, tc.remanifest)}, rules.OnErrorDeny)
		if got := verdict(j, tc.main, tc.from); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: got %q, want %q...", tc.name, got, tc.want)
		}
	}
}
