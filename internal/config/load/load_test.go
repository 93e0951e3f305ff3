package load_test

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/config/load"
)

// files returns a MapFS of regular files.
func files(m map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for p, src := range m {
		fsys[p] = &fstest.MapFile{Data: []byte(src)}
	}
	return fsys
}

// loaded loads fsys and returns the paths of the files read, the skipped
// ones, and the diagnostics as strings.
func loaded(t *testing.T, fsys fs.FS) (read, skipped, ds []string) {
	t.Helper()
	repo, diags, err := load.Load(fsys, "repo")
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	for _, f := range repo.Files {
		read = append(read, f.Path)
	}
	for _, d := range diags {
		ds = append(ds, d.String())
	}
	return read, repo.Skipped, ds
}

const pkg = "package charter\n"

func TestWalk(t *testing.T) {
	fsys := files(map[string]string{
		"charter.cue":             pkg,
		"agents/b.cue":            pkg,
		"agents/a.cue":            pkg,
		"agents/deep/er/c.cue":    pkg,
		"agents/notes.md":         "not cue",
		"agents/a.cue.bak":        "not cue",
		".hidden.cue":             pkg,
		".git/config.cue":         pkg,
		"_drafts/x.cue":           pkg,
		"agents/_old.cue":         pkg,
		"cue.mod/module.cue":      `module: "x.example/y"`,
		"cue.mod/pkg/dep/dep.cue": pkg,
	})
	read, skipped, ds := loaded(t, fsys)
	want := []string{"agents/a.cue", "agents/b.cue", "agents/deep/er/c.cue", "charter.cue"}
	if diff := cmp.Diff(want, read); diff != "" {
		t.Errorf("files read (-want +got):\n%s", diff)
	}
	if len(skipped) != 0 || len(ds) != 0 {
		t.Errorf("skipped %q, diagnostics %q; want none", skipped, ds)
	}
}

func TestNoFiles(t *testing.T) {
	for name, fsys := range map[string]fs.FS{
		"empty":        fstest.MapFS{},
		"no cue files": files(map[string]string{"README.md": "hi", "docs/a.txt": "x"}),
		"only skipped": files(map[string]string{"_a.cue": pkg, ".b.cue": pkg, "cue.mod/module.cue": ""}),
	} {
		_, _, err := load.Load(fsys, "repo")
		var nf *load.NoFilesError
		if !errors.As(err, &nf) {
			t.Errorf("%s: Load error = %v, want a *NoFilesError", name, err)
		}
	}
}

func TestFileProblems(t *testing.T) {
	big := pkg + "x: \"" + strings.Repeat("a", load.MaxFileSize) + "\"\n"
	tests := []struct {
		name    string
		src     string
		want    []string
		skipped bool
	}{
		{
			name: "valid",
			src:  pkg + "agents: ann: name: \"Ann\"\n",
		},
		{
			name:    "NUL byte",
			src:     pkg + "\x00\x01",
			want:    []string{"a.cue:2:1: error: [read] not a UTF-8 text file (binary or another encoding); save it as UTF-8 text, or rename it so it does not end in .cue"},
			skipped: true,
		},
		{
			name:    "Latin-1",
			src:     pkg + "x: \"Ren\xe9e\"\n",
			want:    []string{"a.cue:2:8: error: [read] not a UTF-8 text file (binary or another encoding); save it as UTF-8 text, or rename it so it does not end in .cue"},
			skipped: true,
		},
		{
			name:    "too large",
			src:     big,
			want:    []string{"a.cue:1:1: error: [read] file is 4.0 MiB, larger than the 4.0 MiB charter reads; split it into smaller files"},
			skipped: true,
		},
		{
			name:    "syntax: the first error, in its field",
			src:     pkg + "agents: ann: {\n\tname: \"Ann\",,\n}\nx: ]\n",
			want:    []string{"a.cue:3:14: error: [syntax] agents.ann: syntax error: expected operand, found ','"},
			skipped: true,
		},
		{
			name:    "syntax: outside any field",
			src:     "package charter\n}\n",
			want:    []string{"a.cue:2:1: error: [syntax] syntax error: expected 'EOF', found '}'"},
			skipped: true,
		},
		{
			name:    "a scalar at the top level",
			src:     pkg + "\"hello\"\n",
			want:    []string{"a.cue:2:1: error: [syntax] a value at the top level of the file: a charter file holds fields (agents: ..., profiles: ...); give the value a field name, or remove it"},
			skipped: true,
		},
		{
			name: "nested 64 deep",
			src:  pkg + "x: " + strings.Repeat("a: ", 64) + "1\n",
		},
		{
			name:    "nested 65 deep",
			src:     pkg + "x: " + strings.Repeat("a: ", 65) + "1\n",
			want:    []string{"a.cue:2:196: error: [depth] x.a.a.a.a.a…: values are nested more than 64 deep; flatten the structure"},
			skipped: true,
		},
		{
			name:    "lists nested too deep",
			src:     pkg + "x: y: " + strings.Repeat("[", 100) + strings.Repeat("]", 100) + "\n",
			want:    []string{"a.cue:2:70: error: [depth] x.y[0][0][0][0]…: values are nested more than 64 deep; flatten the structure"},
			skipped: true,
		},
		{
			name: "an expression 500 terms long",
			src:  pkg + "x: " + strings.Repeat("1 + ", 499) + "1\n",
		},
		{
			name:    "an expression 100,000 terms long",
			src:     pkg + "x: " + strings.Repeat("1+", 99999) + "1\n",
			want:    []string{"a.cue:2:4: error: [depth] x: expression is nested more than 1000 deep; split it into named fields"},
			skipped: true,
		},
		{
			name:    "another package",
			src:     "package other\n",
			want:    []string{"a.cue:1:1: error: [package] file declares package other, but other files declare package charter; use one package name (charter suggests \"package charter\") in every file"},
			skipped: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := files(map[string]string{"a.cue": tt.src, "0.cue": pkg})
			_, skipped, ds := loaded(t, fsys)
			if diff := cmp.Diff(tt.want, ds); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			if got := len(skipped) > 0; got != tt.skipped {
				t.Errorf("skipped = %q, want skipped: %v", skipped, tt.skipped)
			}
		})
	}
}

func TestLinksAndIrregularFiles(t *testing.T) {
	fsys := files(map[string]string{
		"charter.cue":   pkg,
		"types/t.cue":   pkg,
		"shared/x.cue":  pkg,
		"agents/ok.cue": pkg,
	})
	link := func(target string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte(target), Mode: fs.ModeSymlink}
	}
	fsys["agents/in.cue"] = link("../types/t.cue")
	fsys["agents/out.cue"] = link("../../elsewhere/a.cue")
	fsys["agents/abs.cue"] = link("/etc/passwd.cue")
	fsys["agents/dir"] = link("../shared")
	fsys["agents/readme"] = link("../README") // not .cue, not a folder: silent
	fsys["agents/ext"] = link("../../ext")    // out of the root, may be a folder
	fsys["agents/pipe.cue"] = &fstest.MapFile{Mode: fs.ModeNamedPipe}
	fsys["agents/pipe.txt"] = &fstest.MapFile{Mode: fs.ModeNamedPipe}

	read, skipped, ds := loaded(t, fsys)
	wantRead := []string{"agents/ok.cue", "charter.cue", "shared/x.cue", "types/t.cue"}
	if diff := cmp.Diff(wantRead, read); diff != "" {
		t.Errorf("files read (-want +got):\n%s", diff)
	}
	want := []string{
		"agents/abs.cue: error: [symlink] symbolic link to /etc/passwd.cue leads out of the config root; not followed: copy what it points at into the repository instead",
		"agents/dir: warning: [symlink] symbolic link to ../shared not followed: charter reads only regular files, so the same bytes are read from the working tree and from Git",
		"agents/ext: error: [symlink] symbolic link to ../../ext leads out of the config root; not followed: copy what it points at into the repository instead",
		"agents/in.cue: warning: [symlink] symbolic link to ../types/t.cue not followed: charter reads only regular files, so the same bytes are read from the working tree and from Git",
		"agents/out.cue: error: [symlink] symbolic link to ../../elsewhere/a.cue leads out of the config root; not followed: copy what it points at into the repository instead",
		"agents/pipe.cue: warning: [read] not a regular file (a named pipe); not read: charter reads only regular files",
	}
	if diff := cmp.Diff(want, ds); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"agents/abs.cue", "agents/ext", "agents/out.cue"}, skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
}

// failing is a file system in which some names cannot be opened.
type failing struct {
	fs.FS
	bad map[string]bool
}

func (f failing) Open(name string) (fs.File, error) {
	if f.bad[name] {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return f.FS.Open(name)
}

func TestUnreadable(t *testing.T) {
	base := files(map[string]string{"a.cue": pkg, "agents/b.cue": pkg, "agents/c.cue": pkg, "types/t.cue": pkg})
	tests := []struct {
		name string
		bad  []string
		want string
	}{
		{"a file", []string{"agents/b.cue"},
			"agents/b.cue: permission denied; make it readable, or rename it to start with _ so that charter skips it"},
		{"two files", []string{"agents/b.cue", "agents/c.cue"},
			"agents/b.cue: permission denied, agents/c.cue: permission denied; make them readable, or rename them to start with _ so that charter skips them"},
		{"a folder", []string{"types"},
			"types: permission denied; make it readable, or rename it to start with _ so that charter skips it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bad := map[string]bool{}
			for _, b := range tt.bad {
				bad[b] = true
			}
			_, _, err := load.Load(failing{base, bad}, "repo")
			var re *load.ReadError
			if !errors.As(err, &re) {
				t.Fatalf("Load error = %v, want a *ReadError", err)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("error = %q\nwant    %q", got, tt.want)
			}
		})
	}
}

func TestSkipsAndReads(t *testing.T) {
	tests := []struct {
		name  string
		typ   fs.FileMode
		skips bool // as a file, or as a folder when typ is fs.ModeDir
		reads bool
	}{
		{"a.cue", 0, false, true},
		{"a.cue.bak", 0, false, false},
		{"notes.md", 0, false, false},
		{".a.cue", 0, true, false},
		{"_a.cue", 0, true, false},
		{"a.cue", fs.ModeSymlink, false, false},
		{"a.cue", fs.ModeNamedPipe, false, false},
		{"cue.mod", 0, false, false},
		{"cue.mod", fs.ModeDir, true, false},
		{"agents", fs.ModeDir, false, false},
		{".git", fs.ModeDir, true, false},
		{"_drafts", fs.ModeDir, true, false},
	}
	for _, tt := range tests {
		if got := load.Skips(tt.name, tt.typ.IsDir()); got != tt.skips {
			t.Errorf("Skips(%q, %v) = %v, want %v", tt.name, tt.typ.IsDir(), got, tt.skips)
		}
		if got := load.Reads(tt.name, tt.typ); got != tt.reads {
			t.Errorf("Reads(%q, %v) = %v, want %v", tt.name, tt.typ, got, tt.reads)
		}
	}
}

// TestCharColumns checks that positions are given in characters: a syntax
// error after non-ASCII text, and Repo.CharColumn on a file that parsed.
func TestCharColumns(t *testing.T) {
	repo, ds, err := load.Load(files(map[string]string{
		"a.cue":   "package charter\n\nagents: zoe: {name: \"Zoë ☃\", role: \"x\"}\n",
		"bad.cue": "package charter\n\nx: \"ünïcödé\" ]\n",
	}), "repo")
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || ds[0].File != "bad.cue" || ds[0].Line != 3 || ds[0].Column != 14 {
		t.Errorf("syntax error: %v, want bad.cue:3:14 (character 14, byte 18)", ds)
	}
	// role is at byte 33 of line 3, character 30.
	if got := repo.CharColumn("a.cue", 3, 33); got != 30 {
		t.Errorf("CharColumn(a.cue, 3, 33) = %d, want 30", got)
	}
	if got := repo.CharColumn("<charter>/stdlib/x.cue", 3, 34); got != 34 {
		t.Errorf("a file that was not read keeps its column: got %d", got)
	}
}
