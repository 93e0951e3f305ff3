package source_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/repo/source"
)

func writeFiles(t *testing.T, dir string, pathContent ...string) {
	t.Helper()
	for i := 0; i+1 < len(pathContent); i += 2 {
		p := filepath.Join(dir, filepath.FromSlash(pathContent[i]))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(pathContent[i+1]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("cannot make symlinks here: %v", err)
	}
}

func TestDirFS(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, "a.cue", "a: 1\n", "team/b.cue", "b: 2\n", "team/deep/c.cue", "c: 3\n")
	fsys, err := source.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer fsys.(interface{ Close() error }).Close()
	if err := fstest.TestFS(fsys, "a.cue", "team/b.cue", "team/deep/c.cue"); err != nil {
		t.Fatal(err)
	}
}

func TestDirMissing(t *testing.T) {
	_, err := source.Dir(filepath.Join(t.TempDir(), "nope"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Dir of a missing directory: got %v, want fs.ErrNotExist", err)
	}
}

// symlinkTree makes a config root "root" beside a file "outside.cue" with
// links of every kind, and returns the root.
func symlinkTree(t *testing.T) string {
	base := t.TempDir()
	writeFiles(t, base, "outside.cue", "secret: 1\n", "root/a.cue", "a: 1\n", "root/sub/b.cue", "b: 1\n")
	root := filepath.Join(base, "root")
	symlink(t, "../outside.cue", filepath.Join(root, "out.cue"))
	symlink(t, "a.cue", filepath.Join(root, "in.cue"))
	symlink(t, "sub", filepath.Join(root, "indir"))
	symlink(t, "..", filepath.Join(root, "up"))
	symlink(t, filepath.Join(base, "outside.cue"), filepath.Join(root, "sub", "abs.cue"))
	return root
}

// checkSymlinks checks the symlink behaviour every file system of the
// package shares, for the links of symlinkTree.
func checkSymlinks(t *testing.T, fsys fs.FS, absTarget string) {
	t.Helper()
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	type ent struct {
		Name string
		Type fs.FileMode
	}
	var got []ent
	for _, e := range entries {
		got = append(got, ent{e.Name(), e.Type()})
	}
	want := []ent{
		{"a.cue", 0},
		{"in.cue", fs.ModeSymlink},
		{"indir", fs.ModeSymlink},
		{"out.cue", fs.ModeSymlink},
		{"sub", fs.ModeDir},
		{"up", fs.ModeSymlink},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("ReadDir(.) (-want +got):\n%s", d)
	}

	tests := []struct {
		name    string
		link    string
		target  string
		escapes bool
	}{
		{"out.cue", "out.cue", "../outside.cue", true},
		{"in.cue", "in.cue", "a.cue", false},
		{"indir", "indir", "sub", false},
		{"indir/b.cue", "indir", "sub", false},
		{"up/outside.cue", "up", "..", true},
		{"sub/abs.cue", "sub/abs.cue", absTarget, true},
	}
	for _, tt := range tests {
		check := func(op string, err error) {
			t.Helper()
			var se *source.SymlinkError
			if !errors.As(err, &se) {
				t.Errorf("%s(%s): got %v, want *SymlinkError", op, tt.name, err)
				return
			}
			got := []any{se.Path, se.Target, se.Escapes()}
			want := []any{tt.link, tt.target, tt.escapes}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("%s(%s): (-want +got):\n%s", op, tt.name, d)
			}
		}
		_, err := fsys.Open(tt.name)
		check("Open", err)
		_, err = fs.ReadFile(fsys, tt.name)
		check("ReadFile", err)
		_, err = fs.Stat(fsys, tt.name)
		check("Stat", err)
	}

	if target, err := fs.ReadLink(fsys, "out.cue"); err != nil || target != "../outside.cue" {
		t.Errorf("ReadLink(out.cue) = %q, %v", target, err)
	}
	if fi, err := fs.Lstat(fsys, "indir"); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("Lstat(indir) = %v, %v; want a symlink", fi, err)
	}
	if _, err := fs.ReadLink(fsys, "a.cue"); err == nil {
		t.Errorf("ReadLink(a.cue) of a regular file succeeded")
	}
	if b, err := fs.ReadFile(fsys, "sub/b.cue"); err != nil || string(b) != "b: 1\n" {
		t.Errorf("ReadFile(sub/b.cue) = %q, %v", b, err)
	}

	links, err := source.Symlinks(fsys)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, l := range links {
		paths = append(paths, l.Path+" -> "+l.Target)
	}
	wantPaths := []string{"in.cue -> a.cue", "indir -> sub", "out.cue -> ../outside.cue", "sub/abs.cue -> " + absTarget, "up -> .."}
	if d := cmp.Diff(wantPaths, paths); d != "" {
		t.Errorf("Symlinks (-want +got):\n%s", d)
	}
}

func TestDirSymlinks(t *testing.T) {
	root := symlinkTree(t)
	fsys, err := source.Dir(root)
	if err != nil {
		t.Fatal(err)
	}
	checkSymlinks(t, fsys, filepath.Join(filepath.Dir(root), "outside.cue"))
}

func TestSymlinkErrorMessage(t *testing.T) {
	tests := []struct {
		err  *source.SymlinkError
		want string
	}{
		{&source.SymlinkError{Path: "agents/x.cue", Target: "../../etc/passwd"},
			`agents/x.cue: symlink to "../../etc/passwd" not followed: it leads out of the config root; copy the file into the config root instead`},
		{&source.SymlinkError{Path: "x.cue", Target: "/etc/passwd"},
			`x.cue: symlink to "/etc/passwd" not followed: it leads out of the config root; copy the file into the config root instead`},
		{&source.SymlinkError{Path: "agents/x.cue", Target: "../y.cue"},
			`agents/x.cue: symlink to "../y.cue" not followed: charter does not follow symlinks; move or copy the file instead`},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}
}

func TestDirInvalidPaths(t *testing.T) {
	fsys, err := source.Dir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"../x", "/etc/passwd", "a//b", "a/../../b", ""} {
		if _, err := fsys.Open(name); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("Open(%q): got %v, want fs.ErrInvalid", name, err)
		}
	}
	if _, err := fsys.Open("missing.cue"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open(missing.cue): got %v, want fs.ErrNotExist", err)
	}
}
