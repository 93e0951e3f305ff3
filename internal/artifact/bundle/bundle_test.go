package bundle

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gowebpki/jcs"

	"github.com/charter-dev/charter/internal/artifact/bundlefile"
	"github.com/charter-dev/charter/internal/testkit/testrepo"
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

func build(t *testing.T) bundlefile.Tree {
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
		"categories.json", "delegation.json", "manifest.json",
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
	var m bundlefile.Manifest
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

// TestContentHash recomputes the hash as docs/design.md §9 defines it: SHA-256 of
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
	for _, f := range []string{"id", "name", "description"} {
		if _, ok := skill[f]; !ok {
			t.Errorf("skill lacks required field %s", f)
		}
	}
	// A card holds no empty list: the A2A SDKs drop them before they
	// verify a signature, so a card that holds one signs what they do not
	// read (lint's skill-without-tags says a skill should have tags).
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if l, ok := e.([]any); ok && len(l) == 0 {
					t.Errorf("card.json holds an empty list: %s", k)
				}
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(card)
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
	// ann's primary mail skill at 0.8 routes before bob's secondary one at
	// proficiency 1 (0.32 against 0.2).
	if h := tm.Skills["mail"]; len(h) != 2 || h[0].Agent != "ann" || h[0].Proficiency != 0.8 {
		t.Errorf("skill index = %+v", h)
	}
}

func TestWriteDirReplacesAtomically(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dist")
	if err := WriteDir(dir, bundlefile.Tree{"a.json": []byte("old")}); err != nil {
		t.Fatal(err)
	}
	if err := WriteDir(dir, bundlefile.Tree{"b/c.json": []byte("new")}); err != nil {
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
	if err := WriteDir(dir, bundlefile.Tree{"manifest.json": []byte("old")}); err != nil {
		t.Fatal(err)
	}
	alive := func(n int) bool { return n < 2 }
	if err := writeDir(dir, bundlefile.Tree{"manifest.json": []byte("new"), "x.json": []byte("x"), "y.json": []byte("y")}, alive); !errors.Is(err, errKilled) {
		t.Fatalf("WriteDir = %v, want the simulated kill", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "manifest.json")); string(b) != "old" {
		t.Errorf("manifest.json = %q after a killed build, want the old one", b)
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), ".dist.tmp-*")); len(m) != 1 {
		t.Errorf("a killed build should leave its temporary directory; found %v", m)
	}
	// The next build cleans up what the killed one left.
	if err := WriteDir(dir, bundlefile.Tree{"manifest.json": []byte("new")}); err != nil {
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
	if err := WriteDir(oldBundle, bundlefile.Tree{"a.json": []byte("{}"), "manifest.json": []byte(`{"schema_version": "1", "charter_version": "x", "cue_version": "y", "files": [{"path": "a.json", "sha256": "", "size": 2}]}`)}); err != nil {
		t.Fatal(err)
	}
	// Only a file named manifest.json: a web app's, not a bundle.
	app := filepath.Join(root, "app")
	os.MkdirAll(app, 0o755)
	os.WriteFile(filepath.Join(app, "manifest.json"), []byte(`{"name": "app"}`), 0o644)
	// A bundle with a file it does not list, or one it lists missing.
	extra := filepath.Join(root, "extra")
	if err := WriteDir(extra, bundlefile.Tree{"a.json": []byte("{}"), "notes.txt": nil, "manifest.json": []byte(`{"schema_version": "1", "charter_version": "x", "cue_version": "y", "files": [{"path": "a.json", "sha256": "", "size": 2}]}`)}); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(root, "missing")
	if err := WriteDir(missing, bundlefile.Tree{"manifest.json": []byte(`{"schema_version": "1", "charter_version": "x", "cue_version": "y", "files": [{"path": "a.json", "sha256": "", "size": 2}]}`)}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		out, want string
	}{
		{filepath.Join(root, "new"), ""},
		{oldBundle, ""},
		{filepath.Join(cfg, "dist"), ""},
		{cfg, "config root"},
		{root, "config root"},
		{file, "is a file"},
		{notBundle, "not a charter bundle (it has no manifest.json)"},
		{app, "not a charter bundle (manifest.json is not charter's: json: unknown field \"name\")"},
		{extra, "not a charter bundle (notes.txt is not in its manifest.json)"},
		{missing, "not a charter bundle (a.json, which its manifest.json lists, is missing)"},
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
	for _, bad := range []string{"soon", "1.5", "0x10", "17 junk", "-1", "-1700000000", "+1700000000", " 1700000000"} {
		t.Setenv("SOURCE_DATE_EPOCH", bad)
		if e, err := Epoch(nil); err == nil {
			t.Errorf("Epoch accepted SOURCE_DATE_EPOCH=%q as %v", bad, e)
		}
	}
}

// TestFailedWriteKeepsOldBundle makes a write fail half-way whoever runs
// the test (root ignores a read-only directory): a file name longer than
// any file system allows. The old bundle must be intact and nothing left
// behind.
func TestFailedWriteKeepsOldBundle(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dist")
	if err := WriteDir(dir, bundlefile.Tree{"manifest.json": []byte("old")}); err != nil {
		t.Fatal(err)
	}
	long := "agents/x/" + strings.Repeat("n", 300) + ".json"
	err := WriteDir(dir, bundlefile.Tree{"manifest.json": []byte("new"), "agents/a.json": []byte("a"), long: []byte("too long")})
	if err == nil {
		t.Fatal("WriteDir succeeded writing a file name of 300 bytes")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "manifest.json")); string(b) != "old" {
		t.Errorf("manifest.json = %q after a failed build, want the old one", b)
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), ".dist.tmp-*")); len(m) > 0 {
		t.Errorf("a failed build left %v", m)
	}
}

// TestFileAndFolder checks that a tree whose path is both a file and a
// folder is refused before anything is written.
func TestFileAndFolder(t *testing.T) {
	err := WriteDir(filepath.Join(t.TempDir(), "dist"), bundlefile.Tree{"a": []byte("file"), "a/b.json": []byte("under a file")})
	if err == nil || !strings.Contains(err.Error(), "a is both a file and a folder") {
		t.Errorf("WriteDir = %v, want a is both a file and a folder", err)
	}
}

// TestSortedKeys checks docs/design.md §7's "keys sorted" on every JSON file of a
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

// TestRebuildReusesPreviousBundle checks the bundle kept beside dist: the
// build after next starts from it, keeps its files that still hold the
// right bytes (the same inode), and replaces or removes everything else,
// whatever was done to it meanwhile, without following a link out of it.
func TestRebuildReusesPreviousBundle(t *testing.T) {
	root := t.TempDir()
	dir, prev := filepath.Join(root, "dist"), filepath.Join(root, ".dist.prev")
	v1 := bundlefile.Tree{"manifest.json": []byte("m1"), "a/same.json": []byte("same"), "a/changed.json": []byte("v1"),
		"a/edited.json": []byte("built"), "a/chmod.json": []byte("mode"), "gone/x.json": []byte("x")}
	v2 := bundlefile.Tree{"manifest.json": []byte("m2"), "a/same.json": []byte("same")}
	for _, tree := range []bundlefile.Tree{v1, v2} {
		if err := WriteDir(dir, tree); err != nil {
			t.Fatal(err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(prev, ".gitignore")); err != nil || !strings.Contains(string(b), "*") {
		t.Fatalf(".dist.prev/.gitignore = %q, %v; want one that ignores everything", b, err)
	}
	// Meddle with the kept bundle (v1).
	outside := filepath.Join(root, "outside")
	must(t, os.Mkdir(outside, 0o755))
	must(t, os.WriteFile(filepath.Join(prev, "a/edited.json"), []byte("BUILT"), 0o644))
	must(t, os.Chmod(filepath.Join(prev, "a/chmod.json"), 0o600))
	must(t, os.WriteFile(filepath.Join(prev, "a/extra.json"), []byte("extra"), 0o644))
	must(t, os.RemoveAll(filepath.Join(prev, "gone")))
	must(t, os.Symlink(outside, filepath.Join(prev, "gone")))
	stat := func(p string) os.FileInfo {
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		return fi
	}
	// Held open, so that no inode is freed and reused by a new file.
	before := map[string]os.FileInfo{}
	for p := range v1 {
		if f, err := os.Open(filepath.Join(prev, p)); err == nil {
			defer f.Close()
			fi, _ := f.Stat()
			before[p] = fi
		}
	}

	v3 := bundlefile.Tree{"manifest.json": []byte("m3"), "a/same.json": []byte("same"), "a/changed.json": []byte("v3"),
		"a/edited.json": []byte("built"), "a/chmod.json": []byte("mode"), "gone/y.json": []byte("y"), "b/new.json": []byte("new")}
	if err := WriteDir(dir, v3); err != nil {
		t.Fatal(err)
	}
	got := bundlefile.Tree{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fi := stat(p)
		switch {
		case d.IsDir():
			if fi.Mode().Perm() != 0o755 {
				t.Errorf("%s: folder mode %v, want 0755", rel, fi.Mode().Perm())
			}
		case !fi.Mode().IsRegular():
			t.Errorf("%s: %v, want a regular file", rel, fi.Mode())
		default:
			if fi.Mode().Perm() != 0o644 {
				t.Errorf("%s: mode %v, want 0644", rel, fi.Mode().Perm())
			}
			b, _ := os.ReadFile(p)
			got[filepath.ToSlash(rel)] = b
		}
		return nil
	})
	must(t, err)
	if diff := cmp.Diff(v3, got); diff != "" {
		t.Errorf("dist after the rebuild (-want +got):\n%s", diff)
	}
	for p, kept := range map[string]bool{"a/same.json": true, "a/changed.json": false, "a/edited.json": false, "a/chmod.json": false, "manifest.json": false} {
		if same := os.SameFile(before[p], stat(filepath.Join(dir, p))); same != kept {
			t.Errorf("%s: kept from the previous bundle = %v, want %v", p, same, kept)
		}
	}
	if entries, _ := os.ReadDir(outside); len(entries) > 0 {
		t.Errorf("the build wrote through a link out of .dist.prev: %v", entries)
	}
	if b, _ := os.ReadFile(filepath.Join(prev, "manifest.json")); string(b) != "m2" {
		t.Errorf(".dist.prev/manifest.json = %q, want the replaced bundle's (m2)", b)
	}
	if m, _ := filepath.Glob(filepath.Join(root, ".dist.tmp-*")); len(m) > 0 {
		t.Errorf("temporary directories left: %v", m)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestWriteDirThroughLink builds into a dist that is a link to a folder:
// charter writes nothing through the link it moves aside, and does not
// keep it as the previous bundle.
func TestWriteDirThroughLink(t *testing.T) {
	root := t.TempDir()
	target := filepath.Join(root, "deploy")
	must(t, os.Mkdir(target, 0o755))
	must(t, os.WriteFile(filepath.Join(target, "manifest.json"), []byte("m0"), 0o644))
	must(t, os.WriteFile(filepath.Join(target, ".gitignore"), []byte("secrets.env\n"), 0o644))
	dist := filepath.Join(root, "dist")
	must(t, os.Symlink(target, dist))
	for _, m := range []string{"m1", "m2"} {
		if err := WriteDir(dist, bundlefile.Tree{"manifest.json": []byte(m)}); err != nil {
			t.Fatal(err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(target, ".gitignore")); string(b) != "secrets.env\n" {
		t.Errorf("deploy/.gitignore was written through the link: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(target, "manifest.json")); string(b) != "m0" {
		t.Errorf("deploy/manifest.json = %q; the build wrote through the link", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dist, "manifest.json")); string(b) != "m2" {
		t.Errorf("dist/manifest.json = %q, want m2", b)
	}
}
