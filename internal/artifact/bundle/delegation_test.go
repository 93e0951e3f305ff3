package bundle

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/artifact/bundlefile"
	"github.com/charter-dev/charter/internal/canonjson"
	"github.com/charter-dev/charter/internal/testkit/testrepo"
	"github.com/charter-dev/charter/rules"
)

// devTeam builds examples/dev-team, whose agents delegate through roles.
func devTeam(t *testing.T) (bundlefile.Tree, *bundlefile.Manifest) {
	t.Helper()
	tree, err := Build(testrepo.Compile(t, os.DirFS("../../../examples/dev-team")), Options{CharterVersion: "test", CUEVersion: "v0"})
	if err != nil {
		t.Fatal(err)
	}
	m, err := bundlefile.Verify(tree)
	if err != nil {
		t.Fatal(err)
	}
	return tree, m
}

// TestDelegationMatchesAgents: delegation.json says for every agent what
// its agent.json says, and the runtime reads it so.
func TestDelegationMatchesAgents(t *testing.T) {
	tree, m := devTeam(t)
	r := bundlefile.TreeRuntime(tree, m, "dev-team")
	graph, ok, err := r.Delegation()
	if err != nil || !ok {
		t.Fatalf("Delegation() = %v, %v", ok, err)
	}
	want := map[string][]string{}
	for _, id := range r.AgentIDs() {
		ds, err := rules.ReadDelegates(tree["agents/"+id+"/agent.json"])
		if err != nil {
			t.Fatal(err)
		}
		want[id] = ds
	}
	if diff := cmp.Diff(want, graph); diff != "" {
		t.Errorf("delegation.json (-agent.json +delegation.json):\n%s", diff)
	}
	if len(graph["priya"]) == 0 {
		t.Errorf("priya delegates to no one: the example no longer tests a graph")
	}
}

// withFile returns tree with rel set to b (removed for nil), and its
// manifest rewritten to match when remanifest is set.
func withFile(t *testing.T, tree bundlefile.Tree, rel string, b []byte, remanifest bool) (bundlefile.Tree, *bundlefile.Manifest) {
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
			if p == "manifest.json" {
				continue
			}
			sum := sha256.Sum256(out[p])
			m.Files = append(m.Files, bundlefile.File{Path: p, SHA256: hex.EncodeToString(sum[:]), Size: len(out[p])})
		}
		if out["manifest.json"], err = canonjson.Pretty(m); err != nil {
			t.Fatal(err)
		}
	}
	return out, m
}

func TestRuntimeDelegation(t *testing.T) {
	tree, _ := devTeam(t)
	widened := strings.Replace(string(tree[bundlefile.DelegationFile]), `"tess": []`, `"tess": ["priya"]`, 1)
	if widened == string(tree[bundlefile.DelegationFile]) {
		t.Fatal("the example has no tess who delegates to no one")
	}

	// Changed, the manifest left alone: refused, saying so.
	bad, m := withFile(t, tree, bundlefile.DelegationFile, []byte(widened), false)
	_, _, err := bundlefile.TreeRuntime(bad, m, "dev-team").Delegation()
	var verr *bundlefile.VerifyError
	if !errors.As(err, &verr) || !strings.Contains(err.Error(), "delegation.json has") {
		t.Errorf("a widened delegation.json: err = %v, want a bundlefile.VerifyError", err)
	}
	// Listed but gone: refused.
	gone, m := withFile(t, tree, bundlefile.DelegationFile, nil, false)
	if _, _, err := bundlefile.TreeRuntime(gone, m, "dev-team").Delegation(); !errors.As(err, &verr) {
		t.Errorf("a missing delegation.json: err = %v, want a bundlefile.VerifyError", err)
	}
	// Not listed at all (an older charter's bundle): no graph, no error.
	old, m := withFile(t, tree, bundlefile.DelegationFile, nil, true)
	if g, ok, err := bundlefile.TreeRuntime(old, m, "dev-team").Delegation(); g != nil || ok || err != nil {
		t.Errorf("a bundle without delegation.json: Delegation() = %v, %v, %v; want nil, false, nil", g, ok, err)
	}
	// A manifest rewritten to match a file that names no agent: refused
	// by what it says.
	odd, m := withFile(t, tree, bundlefile.DelegationFile, []byte(strings.Replace(widened, `"priya"]`, `"mallory"]`, 1)), true)
	if _, _, err := bundlefile.TreeRuntime(odd, m, "dev-team").Delegation(); err == nil || !strings.Contains(err.Error(), `may start "mallory", which is no agent of the bundle`) {
		t.Errorf("a graph naming no agent: err = %v", err)
	}
}

func TestParseDelegation(t *testing.T) {
	ids := []string{"a", "b", "c"}
	for _, tc := range []struct{ in, err string }{
		{`{"delegates_to": {"a": ["b", "c"], "b": [], "c": ["a"]}}`, ""},
		{`{"delegates_to": {"a": [], "b": []}}`, "it lists no agent c, which the bundle holds"},
		{`{"delegates_to": {"a": [], "b": [], "c": [], "d": []}}`, `it names "d", which is no agent of the bundle`},
		{`{"delegates_to": {"a": ["x"], "b": [], "c": []}}`, `agent a may start "x", which is no agent of the bundle`},
		{`{"delegates_to": {"a": ["c", "b"], "b": [], "c": []}}`, "the delegates_to of agent a are not sorted, each once"},
		{`{"delegates_to": {"a": ["b", "b"], "b": [], "c": []}}`, "the delegates_to of agent a are not sorted, each once"},
		{`{"delegates_to": {"a": null, "b": [], "c": []}}`, "agent a has no delegates_to list"},
		{`{"delegates_to": {"a": [], "b": [], "c": []}, "extra": 1}`, `not the delegation graph charter writes: json: unknown field "extra"`},
		{`{}`, "no delegates_to"},
		{`[]`, "not the delegation graph charter writes"},
		{`{"delegates_to": {"A": [], "b": [], "c": []}}`, `it names "A", which is no agent of the bundle`},
	} {
		_, err := bundlefile.ParseDelegation([]byte(tc.in), ids)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if tc.err == "" && got != "" || !strings.HasPrefix(got, tc.err) {
			t.Errorf("ParseDelegation(%s) = %q, want %q", tc.in, got, tc.err)
		}
	}
}

func FuzzParseDelegation(f *testing.F) {
	f.Add([]byte(`{"delegates_to": {"a": ["b"], "b": []}}`))
	f.Add([]byte(`{"delegates_to": {"a": null}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := bundlefile.ParseDelegation(b, []string{"a", "b"})
		if err == nil && len(g) != 2 {
			t.Errorf("accepted a graph of %d agents for 2", len(g))
		}
	})
}
