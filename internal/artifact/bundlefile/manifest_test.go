package bundlefile

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/canonjson"
)

// withManifest returns files plus the manifest.json that lists them.
func withManifest(t testing.TB, files map[string]string) Tree {
	t.Helper()
	tr := Tree{}
	for p, c := range files {
		tr[p] = []byte(c)
	}
	m := Manifest{SchemaVersion: SchemaVersion, CharterVersion: "test", CUEVersion: "test", Files: []File{}}
	for _, p := range tr.Paths() {
		sum := sha256.Sum256(tr[p])
		m.Files = append(m.Files, File{Path: p, SHA256: hex.EncodeToString(sum[:]), Size: len(tr[p])})
	}
	mb, err := canonjson.Pretty(m)
	if err != nil {
		t.Fatal(err)
	}
	tr["manifest.json"] = mb
	return tr
}

func TestVerify(t *testing.T) {
	good := withManifest(t, map[string]string{"a.json": "{}", "b/c.md": "text"})
	for _, tc := range []struct {
		name   string
		change func(Tree)
		want   []string
	}{
		{"good", func(Tree) {}, nil},
		{"changed", func(t Tree) { t["a.json"] = []byte("[]") }, []string{"a.json has sha256 4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945, the manifest says 44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"}},
		{"longer", func(t Tree) { t["a.json"] = []byte("{ }") }, []string{"a.json has 3 bytes, the manifest says 2"}},
		{"missing and extra", func(t Tree) { delete(t, "b/c.md"); t["z"] = nil }, []string{"b/c.md is missing", "z is not in the manifest"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := Tree{}
			for p, b := range good {
				tr[p] = b
			}
			tc.change(tr)
			_, err := Verify(tr)
			var verr *VerifyError
			if tc.want == nil {
				if err != nil {
					t.Errorf("Verify = %v", err)
				}
				return
			}
			if !errors.As(err, &verr) {
				t.Fatalf("Verify = %v, want a VerifyError", err)
			}
			if d := cmp.Diff(tc.want, verr.Problems); d != "" {
				t.Errorf("problems (-want +got):\n%s", d)
			}
		})
	}
	if _, err := Verify(Tree{"a": nil}); err == nil || !strings.Contains(err.Error(), "no manifest.json") {
		t.Errorf("Verify(no manifest) = %v", err)
	}
}

func TestParseManifestSchema(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
	}{
		{`{"schema_version":"2","charter_version":"x","cue_version":"y","files":[]}`, "the bundle has schema version 2, newer than 1, the newest this charter reads: upgrade charter"},
		// A newer layout may add fields; the version still speaks first.
		{`{"schema_version":"3","new_field":true,"files":[]}`, "the bundle has schema version 3"},
		{`{"schema_version":"1","new_field":true,"files":[]}`, `unknown field "new_field"`},
		{`{"schema_version":"one","files":[]}`, `schema version "one" is not a positive whole number`},
	} {
		_, err := ParseManifest([]byte(tc.in))
		var serr *SchemaError
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseManifest(%s) = %v, want %q", tc.in, err, tc.want)
		}
		if strings.Contains(tc.want, "upgrade") && !errors.As(err, &serr) {
			t.Errorf("ParseManifest(%s) = %T, want a *SchemaError", tc.in, err)
		}
	}
}
