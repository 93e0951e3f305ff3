package bundle

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gowebpki/jcs"

	"github.com/charter-dev/charter/internal/testrepo"
)

var repo = map[string]string{
	"a.cue": `package charter
a2a: {provider: {organization: "Org", url: "https://org.example"}, url: "https://agents.example/"}
agents: ann: {
	name: "Ann", type: "personal_assistant", role: "Assistant", profile: "coding"
	behaviors: [{type: "FileToolsBehavior"}, {type: "LoopDetectionBehavior", params: max_repeats: 3}]
	skills: primary: [{id: "mail", name: "Mail", proficiency: 0.8}]
	personality: {openness: 0.5, extraversion: 0.2, collaboration: "team", conflict_approach: "collaborate"}
	authority: reports_to: "bob"
}
agents: bob: {name: "Bob", type: "personal_assistant", skills: secondary: [{id: "mail", name: "Mail"}]
	personality: {openness: 0.7, extraversion: 0.5, collaboration: "pair", conflict_approach: "compromise"}}
`,
}

func build(t *testing.T) Tree {
	t.Helper()
	tree, err := Build(testrepo.Compile(t, testrepo.FS(repo)), Options{CharterVersion: "test", CUEVersion: "v0"})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

func TestLayout(t *testing.T) {
	got := build(t).Paths()
	want := []string{
		"agents/ann/agent.json", "agents/ann/card.json", "agents/ann/prompt.md",
		"agents/bob/agent.json", "agents/bob/card.json", "agents/bob/prompt.md",
		"categories.json", "manifest.json",
		"profiles/assistant.json", "profiles/coding.json", "profiles/creative.json",
		"profiles/data.json", "profiles/dev.json", "profiles/research.json",
		"team.json",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("bundle paths (-want +got):\n%s", diff)
	}
}

func TestDeterministic(t *testing.T) {
	a, b := build(t), build(t)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("two builds differ:\n%s", diff)
	}
}

func TestManifestHashes(t *testing.T) {
	tree := build(t)
	var m Manifest
	if err := json.Unmarshal(tree["manifest.json"], &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Files) != len(tree)-1 {
		t.Errorf("manifest lists %d files, bundle has %d besides the manifest", len(m.Files), len(tree)-1)
	}
	for _, f := range m.Files {
		sum := sha256.Sum256(tree[f.Path])
		if hex.EncodeToString(sum[:]) != f.SHA256 || len(tree[f.Path]) != f.Size {
			t.Errorf("%s: manifest says %s/%d, content is %x/%d", f.Path, f.SHA256, f.Size, sum, len(tree[f.Path]))
		}
	}
}

// TestContentHash recomputes the hash as DESIGN.md defines it: SHA-256 of
// the RFC 8785 form of agent.json without content_hash.
func TestContentHash(t *testing.T) {
	var doc map[string]any
	if err := json.Unmarshal(build(t)["agents/ann/agent.json"], &doc); err != nil {
		t.Fatal(err)
	}
	want := doc["content_hash"].(string)
	delete(doc, "content_hash")
	b, _ := json.Marshal(doc)
	canon, err := jcs.Transform(b)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(canon)
	if got := hex.EncodeToString(sum[:]); got != want {
		t.Errorf("content_hash = %s, recomputed %s", want, got)
	}
	if !strings.HasPrefix(doc["prompt"].(string), "You are a personal assistant") {
		t.Errorf("agent.json prompt = %.40q", doc["prompt"])
	}
	if doc["behavior"].(map[string]any)["scheduling"].(map[string]any)["ambiguous_time"] != "email_options" {
		t.Errorf("resolved behavior missing the category default: %v", doc["behavior"])
	}
	params := doc["behaviors"].([]any)[1].(map[string]any)["params"].(map[string]any)
	if params["max_repeats"] != float64(3) {
		t.Errorf("behavior params = %v, want max_repeats 3", params)
	}
}

func TestCard(t *testing.T) {
	b := build(t)["agents/ann/card.json"]
	canon, err := jcs.Transform(b)
	if err != nil || !bytes.Equal(canon, b) {
		t.Errorf("card.json is not RFC 8785 canonical JSON")
	}
	var card map[string]any
	if err := json.Unmarshal(b, &card); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"name", "description", "supportedInterfaces", "version", "capabilities", "defaultInputModes", "defaultOutputModes", "skills"} {
		if _, ok := card[f]; !ok {
			t.Errorf("card.json lacks required field %s", f)
		}
	}
	iface := card["supportedInterfaces"].([]any)[0].(map[string]any)
	if iface["url"] != "https://agents.example/ann" || iface["protocolBinding"] != "JSONRPC" || iface["protocolVersion"] != "1.0" {
		t.Errorf("interface = %v", iface)
	}
	skill := card["skills"].([]any)[0].(map[string]any)
	for _, f := range []string{"id", "name", "description", "tags"} {
		if _, ok := skill[f]; !ok {
			t.Errorf("skill lacks required field %s", f)
		}
	}
}

func TestTeam(t *testing.T) {
	var tm struct {
		Agents        []string
		Compatibility [][]float64
		Links         []struct{ From, To, Relation string }
		Skills        map[string][]struct {
			Agent       string
			Proficiency float64
		}
	}
	if err := json.Unmarshal(build(t)["team.json"], &tm); err != nil {
		t.Fatal(err)
	}
	if len(tm.Compatibility) != 2 || len(tm.Compatibility[0]) != 1 || len(tm.Compatibility[1]) != 0 {
		t.Errorf("compatibility triangle = %v", tm.Compatibility)
	}
	if len(tm.Links) != 1 || tm.Links[0].From != "ann" || tm.Links[0].To != "bob" {
		t.Errorf("links = %+v", tm.Links)
	}
	// bob's mail skill defaults to proficiency 1 and so comes first.
	if h := tm.Skills["mail"]; len(h) != 2 || h[0].Agent != "bob" || h[1].Proficiency != 0.8 {
		t.Errorf("skill index = %+v", h)
	}
}

func TestWriteDirReplacesAtomically(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dist")
	if err := WriteDir(dir, Tree{"a.json": []byte("old")}); err != nil {
		t.Fatal(err)
	}
	if err := WriteDir(dir, Tree{"b/c.json": []byte("new")}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "a.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("old file survived the replacement")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "b/c.json")); string(b) != "new" {
		t.Errorf("new file = %q", b)
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), ".dist.tmp-*")); len(m) > 0 {
		t.Errorf("temporary directories left: %v", m)
	}
}

// TestKilledBuildKeepsOldBundle stops a write half-way, as a killed process
// would, and checks the old bundle is intact.
func TestKilledBuildKeepsOldBundle(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dist")
	if err := WriteDir(dir, Tree{"manifest.json": []byte("old")}); err != nil {
		t.Fatal(err)
	}
	writeHook = func(n int) bool { return n < 2 }
	defer func() { writeHook = nil }()
	if err := WriteDir(dir, Tree{"manifest.json": []byte("new"), "x.json": []byte("x"), "y.json": []byte("y")}); !errors.Is(err, errKilled) {
		t.Fatalf("WriteDir = %v, want the simulated kill", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "manifest.json")); string(b) != "old" {
		t.Errorf("manifest.json = %q after a killed build, want the old one", b)
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), ".dist.tmp-*")); len(m) != 1 {
		t.Errorf("a killed build should leave its temporary directory; found %v", m)
	}
	// The next build cleans up what the killed one left.
	writeHook = nil
	if err := WriteDir(dir, Tree{"manifest.json": []byte("new")}); err != nil {
		t.Fatal(err)
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), ".dist.tmp-*")); len(m) > 0 {
		t.Errorf("temporary directories left: %v", m)
	}
}

func TestCheckOut(t *testing.T) {
	root := t.TempDir()
	cfg := filepath.Join(root, "config")
	os.MkdirAll(cfg, 0o755)
	file := filepath.Join(root, "file")
	os.WriteFile(file, nil, 0o644)
	notBundle := filepath.Join(root, "docs")
	os.MkdirAll(notBundle, 0o755)
	os.WriteFile(filepath.Join(notBundle, "x.md"), nil, 0o644)
	oldBundle := filepath.Join(root, "dist")
	os.MkdirAll(oldBundle, 0o755)
	os.WriteFile(filepath.Join(oldBundle, "manifest.json"), nil, 0o644)
	for _, tc := range []struct {
		out, want string
	}{
		{filepath.Join(root, "new"), ""},
		{oldBundle, ""},
		{filepath.Join(cfg, "dist"), ""},
		{cfg, "config root"},
		{root, "config root"},
		{file, "is a file"},
		{notBundle, "not a charter bundle"},
	} {
		err := CheckOut(tc.out, cfg)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("CheckOut(%s) = %v, want nil", tc.out, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("CheckOut(%s) = %v, want an error containing %q", tc.out, err, tc.want)
		}
	}
}

func TestArchiveReproducible(t *testing.T) {
	tree := build(t)
	var a, b bytes.Buffer
	mtime := time.Unix(1700000000, 0)
	if err := WriteArchive(&a, tree, mtime); err != nil {
		t.Fatal(err)
	}
	if err := WriteArchive(&b, build(t), mtime); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two archives of the same input differ")
	}
	t.Setenv("SOURCE_DATE_EPOCH", "1700000000")
	if e, err := Epoch(nil); err != nil || !e.Equal(mtime) {
		t.Errorf("Epoch = %v, %v", e, err)
	}
	t.Setenv("SOURCE_DATE_EPOCH", "soon")
	if _, err := Epoch(nil); err == nil {
		t.Error("Epoch accepted a bad SOURCE_DATE_EPOCH")
	}
}

// TestTeamSortedKeys checks that team.json, written without a key-sorting
// pass, is its own RFC 8785 form: keys sorted at every level.
func TestTeamSortedKeys(t *testing.T) {
	b := bytes.TrimSuffix(build(t)["team.json"], []byte("\n"))
	canon, err := jcs.Transform(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(canon, b) {
		t.Errorf("team.json keys are not sorted:\n%s\nwant\n%s", b, canon)
	}
}

// TestFailedWriteKeepsOldBundle makes a write fail whoever runs the test
// (root ignores a read-only directory): a path under a file cannot be
// created. The old bundle must be intact and nothing left behind.
func TestFailedWriteKeepsOldBundle(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dist")
	if err := WriteDir(dir, Tree{"manifest.json": []byte("old")}); err != nil {
		t.Fatal(err)
	}
	err := WriteDir(dir, Tree{"manifest.json": []byte("new"), "a": []byte("file"), "a/b.json": []byte("under a file")})
	if err == nil {
		t.Fatal("WriteDir succeeded writing a path under a file")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "manifest.json")); string(b) != "old" {
		t.Errorf("manifest.json = %q after a failed build, want the old one", b)
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), ".dist.tmp-*")); len(m) > 0 {
		t.Errorf("a failed build left %v", m)
	}
}

// TestSortedKeys checks DESIGN.md's "keys sorted" on every JSON file of a
// bundle: compacted, each equals its own RFC 8785 form.
func TestSortedKeys(t *testing.T) {
	tree := build(t)
	for _, p := range tree.Paths() {
		if !strings.HasSuffix(p, ".json") {
			continue
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, tree[p]); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		canon, err := jcs.Transform(compact.Bytes())
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if !bytes.Equal(canon, compact.Bytes()) {
			t.Errorf("%s: keys are not sorted (or numbers not canonical)", p)
		}
	}
}

// TestRebuildLinksUnchangedFiles checks that a rebuild keeps the files
// whose bytes did not change (the same inode, linked from the previous
// bundle) and writes the others anew: a changed file, one edited by hand
// since (to the same size), and one whose mode was changed since.
func TestRebuildLinksUnchangedFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dist")
	old := Tree{"manifest.json": []byte("m1"), "a/same.json": []byte("same"), "a/changed.json": []byte("v1"),
		"a/edited.json": []byte("built"), "a/chmod.json": []byte("mode")}
	if err := WriteDir(dir, old); err != nil {
		t.Fatal(err)
	}
	stat := func(p string) os.FileInfo {
		fi, err := os.Stat(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		return fi
	}
	if err := os.WriteFile(filepath.Join(dir, "a/edited.json"), []byte("BUILT"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, "a/chmod.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	before := map[string]os.FileInfo{}
	for p := range old {
		before[p] = stat(p)
	}
	next := Tree{"manifest.json": []byte("m2"), "a/same.json": []byte("same"), "a/changed.json": []byte("v2"),
		"a/edited.json": []byte("built"), "a/chmod.json": []byte("mode"), "b/new.json": []byte("new")}
	if err := WriteDir(dir, next); err != nil {
		t.Fatal(err)
	}
	for p, want := range next {
		got, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s = %q, %v; want %q", p, got, err, want)
		}
		if fi := stat(p); fi.Mode().Perm() != 0o644 {
			t.Errorf("%s has mode %v, want 0644", p, fi.Mode().Perm())
		}
	}
	for p, linked := range map[string]bool{"a/same.json": true, "a/changed.json": false, "a/edited.json": false, "a/chmod.json": false, "manifest.json": false} {
		if got := os.SameFile(before[p], stat(p)); got != linked {
			t.Errorf("%s: same file as before the rebuild = %v, want %v", p, got, linked)
		}
	}
	if fi := stat("a/same.json"); fi.Sys().(*syscall.Stat_t).Nlink != 1 {
		t.Errorf("a/same.json has %d links after the rebuild; the old bundle should be gone", fi.Sys().(*syscall.Stat_t).Nlink)
	}
}
