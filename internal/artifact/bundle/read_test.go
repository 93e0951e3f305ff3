package bundle

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/artifact/bundlefile"
	"github.com/charter-dev/charter/internal/canonjson"
)

// withManifest returns files plus the manifest.json that lists them.
func withManifest(t testing.TB, files map[string]string) bundlefile.Tree {
	t.Helper()
	tr := bundlefile.Tree{}
	for p, c := range files {
		tr[p] = []byte(c)
	}
	m := bundlefile.Manifest{SchemaVersion: bundlefile.SchemaVersion, CharterVersion: "test", CUEVersion: "test", Files: []bundlefile.File{}}
	for _, p := range tr.Paths() {
		sum := sha256.Sum256(tr[p])
		m.Files = append(m.Files, bundlefile.File{Path: p, SHA256: hex.EncodeToString(sum[:]), Size: len(tr[p])})
	}
	mb, err := canonjson.Pretty(m)
	if err != nil {
		t.Fatal(err)
	}
	tr["manifest.json"] = mb
	return tr
}

func TestArchiveRoundTrip(t *testing.T) {
	tr := withManifest(t, map[string]string{"agents/ann/card.json": "{}", "agents/ann/prompt.md": "hi\n", "team.json": "{}\n"})
	src := &bundlefile.Source{Commit: "c", Time: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	a, err := Archive(tr, SourceEpoch(src))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Archive(tr, SourceEpoch(src))
	if !bytes.Equal(a, b) {
		t.Error("Archive is not reproducible")
	}
	got, err := ReadArchive(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(tr, got); d != "" {
		t.Errorf("ReadArchive(Archive(t)) (-want +got):\n%s", d)
	}
	if _, err := bundlefile.Verify(got); err != nil {
		t.Errorf("Verify: %v", err)
	}
}

// tarGz builds an archive entry by entry, to make archives WriteArchive
// never would.
func tarGz(t *testing.T, hdrs ...*tar.Header) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, h := range hdrs {
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			tw.Write(bytes.Repeat([]byte("x"), int(h.Size)))
		}
	}
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

func TestReadArchiveRefuses(t *testing.T) {
	reg := func(name string) *tar.Header {
		return &tar.Header{Name: name, Typeflag: tar.TypeReg, Size: 1, Mode: 0o644}
	}
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"not gzip", []byte("plain"), "not a gzip archive"},
		{"dot dot", tarGz(t, reg("../escape")), `"../escape" is not a clean relative path`},
		{"absolute", tarGz(t, reg("/etc/passwd")), "is not a clean relative path"},
		{"symlink", tarGz(t, &tar.Header{Name: "link", Typeflag: tar.TypeSymlink, Linkname: "/etc"}), "link is not a regular file or folder"},
		{"twice", tarGz(t, reg("team.json"), reg("team.json")), "archive entry team.json appears twice"},
		// On macOS and Windows the second would overwrite the first: an
		// agent id is lower case.
		{"case", tarGz(t, reg("agents/ann/card.json"), reg("agents/Ann/card.json")), `archive entry "agents/Ann/card.json" is not a file of a bundle`},
		// Only the files of a bundle's layout: no .git/config, no name
		// with a line feed or an escape sequence.
		{"git", tarGz(t, reg(".git/config")), `archive entry ".git/config" is not a file of a bundle`},
		{"other", tarGz(t, reg("agents/ann/run.sh")), `archive entry "agents/ann/run.sh" is not a file of a bundle`},
		{"newline", tarGz(t, reg("agents/a\nb/agent.json")), `archive entry "agents/a\nb/agent.json" is not a file of a bundle`},
		{"escape", tarGz(t, reg("profiles/\x1b[2J.json")), `archive entry "profiles/\x1b[2J.json" is not a file of a bundle`},
		// A separator on Windows: ..\ would climb out of --out there.
		{"backslash", tarGz(t, reg(`..\escape`)), `"..\\escape" is not a clean relative path`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadArchive(bytes.NewReader(tc.data))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ReadArchive = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// TestReadArchiveCount: an archive of more entries than a bundle may hold
// is refused before they are read (a 2 MB artifact held 200,015 files).
func TestReadArchiveCount(t *testing.T) {
	defer func(n int) { maxEntries = n }(maxEntries)
	maxEntries = 10
	var hs []*tar.Header
	for i := range 11 {
		hs = append(hs, &tar.Header{Name: fmt.Sprintf("agents/a%d/agent.json", i), Typeflag: tar.TypeReg, Size: 1, Mode: 0o644})
	}
	_, err := ReadArchive(bytes.NewReader(tarGz(t, hs...)))
	if err == nil || !strings.Contains(err.Error(), "archive holds more than 10 entries") {
		t.Errorf("ReadArchive = %v", err)
	}
}

// TestReadArchiveExpands: however well the input compresses, ReadArchive
// stops reading once it has inflated more than a bundle may hold (here a
// small limit and zeros after the archive's end).
func TestReadArchiveExpands(t *testing.T) {
	defer func(n int64) { maxExpanded = n }(maxExpanded)
	maxExpanded = 64 << 10
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	tw.WriteHeader(&tar.Header{Name: "team.json", Typeflag: tar.TypeReg, Size: 1, Mode: 0o644})
	tw.Write([]byte("x"))
	tw.Close()
	gz.Write(make([]byte, 1<<20))
	gz.Close()
	_, err := ReadArchive(&buf)
	if err == nil || !strings.Contains(err.Error(), "the archive inflates to more than 65536 bytes") {
		t.Errorf("ReadArchive = %v", err)
	}
}

func TestReadDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dist")
	tr := withManifest(t, map[string]string{"agents/ann/card.json": "{}", "team.json": "{}\n"})
	if err := WriteDir(dir, tr); err != nil {
		t.Fatal(err)
	}
	got, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(tr, got); d != "" {
		t.Errorf("ReadDir (-want +got):\n%s", d)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadDir(dir); err == nil || !strings.Contains(err.Error(), "link is not a regular file") {
		t.Errorf("ReadDir(with a link) = %v", err)
	}
}

// TestReadDirHuge: a file larger than a bundle may be is refused before it
// is read (here a sparse terabyte, which reading would crash on).
func TestReadDirHuge(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "huge.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 40); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := ReadDir(dir); err == nil || !strings.Contains(err.Error(), "holds more than") {
		t.Errorf("ReadDir(a terabyte) = %v", err)
	}
}

// FuzzReadArchive: any input is read or refused without a panic, and what
// is read writes back to the same tree.
func FuzzReadArchive(f *testing.F) {
	tr := withManifest(f, map[string]string{"a/b.json": "{}", "c.md": "x"})
	a, err := Archive(tr, SourceEpoch(nil))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(a)
	f.Add([]byte{0x1f, 0x8b})
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := ReadArchive(bytes.NewReader(data))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteArchive(&buf, got, time.Unix(0, 0)); err != nil {
			return // a path that is both a file and a folder
		}
		again, err := ReadArchive(&buf)
		if err != nil {
			t.Fatalf("re-reading a written archive: %v", err)
		}
		if d := cmp.Diff(got, again); d != "" {
			t.Errorf("round trip (-first +second):\n%s", d)
		}
		bundlefile.Verify(got)
	})
}
