package bundlefile

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/canonjson"
)

// prettyManifest is a manifest.json as build writes it: n files, a
// source when src is set.
func prettyManifest(t testing.TB, n int, src bool) []byte {
	t.Helper()
	m := Manifest{SchemaVersion: SchemaVersion, CharterVersion: "v1.2.3", CUEVersion: "v0.17.1", Files: []File{}}
	if src {
		m.Source = &Source{Commit: "c0ffee", Tree: "7ree", Time: time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC), Root: "config/ü"}
	}
	for i := range n {
		m.Files = append(m.Files, File{Path: fmt.Sprintf("agents/a%04d/agent-é.json", i), SHA256: fmt.Sprintf("%064x", i*7919), Size: i * 13})
	}
	b, err := canonjson.Pretty(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestParseManifestFast: the manifests charter writes take the scan, and
// it reads them as encoding/json does; other forms of the same manifest,
// and those that only look alike, go to encoding/json.
func TestParseManifestFast(t *testing.T) {
	for _, src := range []bool{false, true} {
		b := prettyManifest(t, 50, src)
		fast, ok := parseManifestFast(b)
		if !ok {
			t.Fatalf("source %v: a manifest as Pretty writes it is not scanned", src)
		}
		slow, err := decodeManifest(b)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(*slow, fast); d != "" {
			t.Errorf("source %v: the scan differs from encoding/json (-json +scan):\n%s", src, d)
		}
	}
	b := string(prettyManifest(t, 2, false))
	for name, in := range map[string]string{
		"compact":                      `{"charter_version":"x","cue_version":"y","files":[{"path":"a","sha256":"` + fmt.Sprintf("%064x", 1) + `","size":1}],"schema_version":"1"}`,
		"a later files key wins":       b[:len(b)-2] + ",\n  \"files\": []\n}\n",
		"a later FILES key wins":       b[:len(b)-2] + ",\n  \"FILES\": []\n}\n",
		"a later fileſ key wins":       b[:len(b)-2] + ",\n  \"fileſ\": null\n}\n",
		"files under source":           `{"schema_version": "1", "source": {` + "\n  \"files\": [\n" + b[strings.Index(b, filesKey)+len(filesKey):],
		"an escape in a path":          replaceOnce(b, `"path": "agents/a0000`, `"path": "agents\/a0000`),
		"a size with a leading zero":   replaceOnce(b, `"size": 13`, `"size": 013`),
		"a size out of range":          replaceOnce(b, `"size": 13`, `"size": 99999999999999999999`),
		"an upper-case sha256":         replaceOnce(b, `"sha256": "00`, `"sha256": "0A`),
		"a key more":                   replaceOnce(b, "\n    }", ",\n      \"x\": 1\n    }"),
		"tabs":                         replaceOnce(b, "      \"path\"", "\t\"path\""),
		"invalid UTF-8 in a path":      replaceOnce(b, "agent-é", "agent-\xff"),
		"a control character in path":  replaceOnce(b, "agent-é", "agent-\x01"),
		"the files value is a string":  replaceOnce(b, "\n  \"files\": [\n", "\n  \"files\": \"[\n"),
		"files after the manifest":     `{"schema_version": "1", "files": []}` + b[strings.Index(b, filesKey):],
		"files inside the files value": replaceOnce(replaceOnce(b, "\n  \"files\": [\n", "\n  \"files\": [{\"x\": {\n  \"files\": [\n"), "\n  ]", "\n  ]}}]"),
		"files inside an object value": replaceOnce(replaceOnce(b, "\n  \"files\": [\n", "\n  \"files\": {\"x\": {\n  \"files\": [\n"), "\n  ]", "\n  ]}}"),
	} {
		if in == b {
			t.Fatalf("%s: the replacement did not apply", name)
		}
		if m, ok := parseManifestFast([]byte(in)); ok {
			slow, err := decodeManifest([]byte(in))
			if err != nil || !cmp.Equal(*slow, m) {
				t.Errorf("%s: the scan read %+v where encoding/json gives %+v, %v", name, m, slow, err)
			}
		}
	}
}

func replaceOnce(s, old, new string) string {
	return string(bytes.Replace([]byte(s), []byte(old), []byte(new), 1))
}

// FuzzParseManifest: whatever the scan reads, encoding/json reads alike.
func FuzzParseManifest(f *testing.F) {
	f.Add(prettyManifest(f, 3, false))
	f.Add(prettyManifest(f, 2, true))
	f.Add(prettyManifest(f, 0, false))
	b := string(prettyManifest(f, 2, false))
	f.Add([]byte(b[:len(b)-2] + ",\n  \"files\": []\n}\n"))
	f.Add([]byte(b[:len(b)-2] + ",\n  \"FILES\": []\n}\n"))
	f.Add([]byte(`{"source": {` + "\n  \"files\": [\n" + b[strings.Index(b, filesKey)+len(filesKey):]))
	f.Add([]byte(replaceOnce(replaceOnce(b, filesKey, "\n  \"files\": [{\"x\": {"+filesKey), entriesEnd, entriesEnd+"}}]")))
	f.Add([]byte(`{"schema_version": "1", "files": []}` + b[strings.Index(b, filesKey):]))
	f.Fuzz(func(t *testing.T, in []byte) {
		m, ok := parseManifestFast(in)
		if !ok {
			return
		}
		slow, err := decodeManifest(in)
		if serr := CheckSchema(m.SchemaVersion); serr != nil {
			// ParseManifest refuses it after the scan, as decodeManifest does.
			if err == nil {
				t.Fatalf("the scan's manifest has a bad schema version (%v), which encoding/json's passed", serr)
			}
			return
		}
		if err != nil {
			t.Fatalf("the scan read a manifest encoding/json refuses: %v", err)
		}
		if d := cmp.Diff(*slow, m); d != "" {
			t.Fatalf("the scan differs from encoding/json (-json +scan):\n%s", d)
		}
	})
}

// BenchmarkParseManifest: a 10,000-agent bundle's manifest (30,000
// files), through the scan and through encoding/json.
func BenchmarkParseManifest(b *testing.B) {
	m := prettyManifest(b, 30000, true)
	b.SetBytes(int64(len(m)))
	b.Run("scan", func(b *testing.B) {
		for b.Loop() {
			if _, err := ParseManifest(m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		for b.Loop() {
			if _, err := decodeManifest(m); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestAgentIDsSorted: the agents' ids come sorted, once each, whatever
// order the manifest lists them in ("agents/a-b/" sorts before
// "agents/a/", the id "a" before "a-b").
func TestAgentIDsSorted(t *testing.T) {
	tr := withManifest(t, map[string]string{"agents/a/agent.json": "{}", "agents/a-b/agent.json": "{}", "agents/b/card.json": "{}", "agents/c/agent.json": "{}"})
	m, err := ParseManifest(tr["manifest.json"])
	if err != nil {
		t.Fatal(err)
	}
	r := TreeRuntime(tr, m, "test")
	if d := cmp.Diff([]string{"a", "a-b", "c"}, r.AgentIDs()); d != "" {
		t.Errorf("AgentIDs (-want +got):\n%s", d)
	}
	m.Files = append(m.Files, m.Files[0])
	slices.Reverse(m.Files)
	r = TreeRuntime(tr, m, "test")
	if d := cmp.Diff([]string{"a", "a-b", "c"}, r.AgentIDs()); d != "" {
		t.Errorf("AgentIDs, listed twice and backwards (-want +got):\n%s", d)
	}
	// A path listed twice: the later entry, as a map of the list had it.
	m.Files = append(m.Files, File{Path: "agents/c/agent.json", SHA256: "later"})
	r = TreeRuntime(tr, m, "test")
	if f, ok := r.file("agents/c/agent.json"); !ok || f.SHA256 != "later" {
		t.Errorf("file(listed twice) = %+v, %v; want the later entry", f, ok)
	}
	if f, ok := r.file("agents/zz/agent.json"); ok {
		t.Errorf("file(not listed) = %+v, true", f)
	}
}
