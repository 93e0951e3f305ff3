//go:build linux || darwin

package bundle

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/artifact/bundlefile"
	"github.com/charter-dev/charter/internal/filestat"
)

// aged is s as a later build sees it: taken long enough after its files
// were written that none is racily clean.
func aged(s *State) *State {
	c := *s
	c.At += int64(10 * time.Second)
	return &c
}

// reads records the files the writer opens to read while f runs.
func reads(t *testing.T, f func()) []string {
	t.Helper()
	var (
		mu  sync.Mutex
		got []string
	)
	opened = func(name string) {
		mu.Lock()
		got = append(got, name)
		mu.Unlock()
	}
	defer func() { opened = nil }()
	f()
	slices.Sort(got)
	return got
}

// want lists what listTree shows of a folder holding exactly tree.
func want(tree bundlefile.Tree) []string {
	var out []string
	dirs := map[string]bool{}
	for p, b := range tree {
		out = append(out, filepath.FromSlash(p)+" -rw-r--r-- "+string(b))
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	for d := range dirs {
		out = append(out, filepath.FromSlash(d)+" drwxr-xr-x")
	}
	slices.Sort(out)
	return out
}

// holdsTree fails t unless dir holds exactly tree, modes included.
func holdsTree(t *testing.T, dir string, tree bundlefile.Tree) {
	t.Helper()
	got := listTree(t, dir)
	slices.Sort(got)
	if diff := cmp.Diff(want(tree), got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", dir, diff)
	}
}

func with(t bundlefile.Tree, kv ...string) bundlefile.Tree {
	out := bundlefile.Tree{}
	for p, b := range t {
		out[p] = b
	}
	for i := 0; i < len(kv); i += 2 {
		if kv[i+1] == "\x00" {
			delete(out, kv[i])
			continue
		}
		out[kv[i]] = []byte(kv[i+1])
	}
	return out
}

// base is a small bundle: agents in folders, a few files each.
func base() bundlefile.Tree {
	t := bundlefile.Tree{"manifest.json": []byte("m0"), "team.json": []byte("team")}
	for _, a := range []string{"ann", "bob", "cy"} {
		for _, f := range []string{"agent.json", "prompt.md", "card.json"} {
			t["agents/"+a+"/"+f] = []byte(a + " " + f)
		}
	}
	t["profiles/strict.json"] = []byte("strict")
	return t
}

// three writes a twice then b, with States, into dist, and returns the
// States of .dist.prev (holding a) and of dist (holding b), aged.
func three(t *testing.T, dir string, a, b bundlefile.Tree) []*State {
	t.Helper()
	var known []*State
	for _, tree := range []bundlefile.Tree{a, a, b} {
		s, err := WriteDirState(dir, tree, known)
		if err != nil {
			t.Fatal(err)
		}
		known = append(known, aged(s))
	}
	return known[1:]
}

// A write over .prev with its State opens no file the State vouches for:
// only those that changed since (in data, or read from dist).
func TestWriteOverReadsNoTrustedFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dist")
	a := base()
	b := with(a, "agents/bob/prompt.md", "bob 2", "manifest.json", "m1")
	c := with(b, "agents/cy/agent.json", "cy 3", "manifest.json", "m2", "agents/dee/agent.json", "dee", "agents/ann/card.json", "\x00")
	known := three(t, dir, a, b)
	var got *State
	opened := reads(t, func() {
		var err error
		if got, err = WriteOver(dir, Listing(c), changed(b, c), known); err != nil {
			t.Fatal(err)
		}
	})
	holdsTree(t, dir, c)
	// bob/prompt.md differs from a's: .prev's is checked, then dist's
	// read; cy/agent.json and manifest.json are in data: .prev's are
	// compared. dee/agent.json is new: nothing to open.
	var rels []string
	for _, n := range opened {
		rel := strings.TrimPrefix(filepath.ToSlash(n), filepath.ToSlash(filepath.Dir(dir))+"/")
		rels = append(rels, rel[strings.Index(rel, "/")+1:])
	}
	slices.Sort(rels)
	if diff := cmp.Diff([]string{"agents/bob/prompt.md", "agents/bob/prompt.md", "agents/cy/agent.json", "manifest.json"}, rels); diff != "" {
		t.Errorf("files opened (-want +got):\n%s\n%v", diff, opened)
	}
	if got == nil || !got.Stats || len(got.Files) != len(c) {
		t.Fatalf("State = %+v, want one of %d files", got, len(c))
	}
	// The State returned is the one of the folder now in dist.
	fi, err := os.Lstat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s := stateFor([]*State{got}, fi); s != got {
		t.Errorf("the State returned does not name dist")
	}
	statesMatch(t, dir, got)
}

// statesMatch fails t unless s records what dir holds: its files and
// folders, each with its Lstat now (the top folder's changes with renames).
func statesMatch(t *testing.T, dir string, s *State) {
	t.Helper()
	check := func(p string, rec Stat) {
		fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			t.Error(err)
			return
		}
		if st, _ := filestat.Of(fi); st != rec {
			t.Errorf("%s: State records %+v, it is %+v", p, rec, st)
		}
	}
	for p, f := range s.Files {
		check(p, f.Stat)
	}
	for d, rec := range s.Dirs {
		if d != "." {
			check(d, rec)
		}
	}
	var files, dirs int
	filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if e != nil && e.IsDir() {
			dirs++
		} else if e != nil {
			files++
		}
		return nil
	})
	if files != len(s.Files) || dirs != len(s.Dirs) {
		t.Errorf("State has %d files and %d folders, %s %d and %d", len(s.Files), len(s.Dirs), dir, files, dirs)
	}
}

// Tampering with .prev between builds is seen: the file or folder whose
// stat changed is read, and the bundle written is right.
func TestWriteOverTampered(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "outside")
	if err := os.WriteFile(outside, []byte("ann agent.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		tamper func(t *testing.T, prev string)
	}{
		{"same-size rewrite, mtime restored", func(t *testing.T, prev string) {
			name := filepath.Join(prev, "agents/ann/agent.json")
			fi, _ := os.Lstat(name)
			f, err := os.OpenFile(name, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteAt([]byte("EVE"), 0)
			f.Close()
			os.Chtimes(name, fi.ModTime(), fi.ModTime())
		}},
		{"file replaced by a link", func(t *testing.T, prev string) {
			name := filepath.Join(prev, "agents/ann/agent.json")
			os.Remove(name)
			if err := os.Symlink(outside, name); err != nil {
				t.Fatal(err)
			}
		}},
		{"file removed", func(t *testing.T, prev string) {
			os.Remove(filepath.Join(prev, "agents/ann/agent.json"))
		}},
		{"file chmod-ed", func(t *testing.T, prev string) {
			os.Chmod(filepath.Join(prev, "agents/ann/agent.json"), 0o600)
		}},
		{"extra file, folder mtime restored", func(t *testing.T, prev string) {
			d := filepath.Join(prev, "agents/ann")
			fi, _ := os.Lstat(d)
			os.WriteFile(filepath.Join(d, "extra.json"), []byte("x"), 0o644)
			os.Chtimes(d, fi.ModTime(), fi.ModTime())
		}},
		{"extra folder", func(t *testing.T, prev string) {
			os.MkdirAll(filepath.Join(prev, "agents/ann/sub/deeper"), 0o755)
		}},
		{"folder mtime changed", func(t *testing.T, prev string) {
			os.Chtimes(filepath.Join(prev, "agents/bob"), time.Unix(1, 0), time.Unix(1, 0))
		}},
		{"folder replaced by a link", func(t *testing.T, prev string) {
			d := filepath.Join(prev, "agents/bob")
			os.RemoveAll(d)
			if err := os.Symlink(filepath.Dir(outside), d); err != nil {
				t.Fatal(err)
			}
		}},
		{"folder replaced by a file", func(t *testing.T, prev string) {
			d := filepath.Join(prev, "profiles")
			os.RemoveAll(d)
			os.WriteFile(d, []byte("p"), 0o644)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "dist")
			a := base()
			b := with(a, "manifest.json", "m1")
			c := with(b, "manifest.json", "m2", "agents/cy/prompt.md", "cy 2")
			known := three(t, dir, a, b)
			tc.tamper(t, filepath.Join(filepath.Dir(dir), ".dist.prev"))
			if _, err := WriteOver(dir, Listing(c), changed(b, c), known); err != nil {
				t.Fatal(err)
			}
			holdsTree(t, dir, c)
			if b, _ := os.ReadFile(outside); string(b) != "ann agent.json" {
				t.Errorf("the file outside was written through a link: %q", b)
			}
		})
	}
}

// A file of .prev its State vouches for but that was written less than
// the racy window before the State was taken is read all the same.
func TestWriteOverRacilyClean(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dist")
	a := base()
	b := with(a, "manifest.json", "m1")
	c := with(b, "manifest.json", "m2")
	sa, err := WriteDirState(dir, a, nil)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := WriteDirState(dir, b, []*State{sa})
	if err != nil {
		t.Fatal(err)
	}
	opened := reads(t, func() {
		if _, err := WriteOver(dir, Listing(c), changed(b, c), []*State{sa, sb}); err != nil {
			t.Fatal(err)
		}
	})
	if len(opened) != len(c) {
		t.Errorf("a State taken just after its files were written: opened %d files, want all %d", len(opened), len(c))
	}
	holdsTree(t, dir, c)
}

// States that do not name the claimed folder spare nothing: every file
// is compared, and the bundle is right.
func TestWriteOverUnmatchedStates(t *testing.T) {
	garbage := &State{}
	if err := gob.NewDecoder(strings.NewReader("garbage, not gob")).Decode(garbage); err == nil {
		t.Fatal("decoded garbage")
	}
	for _, tc := range []struct {
		name  string
		known func(real []*State) []*State
	}{
		{"none", func([]*State) []*State { return nil }},
		{"zero and nil", func([]*State) []*State { return []*State{{}, nil, garbage} }},
		{"another inode", func(real []*State) []*State {
			s := *real[0]
			s.Ino++
			return []*State{&s}
		}},
		{"another device", func(real []*State) []*State {
			s := *real[0]
			s.Dev++
			return []*State{&s}
		}},
		{"stats unknown", func(real []*State) []*State {
			s := *real[0]
			s.Stats = false
			return []*State{&s}
		}},
		{"only dist's", func(real []*State) []*State { return real[1:] }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "dist")
			a := base()
			b := with(a, "manifest.json", "m1")
			c := with(b, "manifest.json", "m2", "agents/ann/prompt.md", "\x00")
			known := tc.known(three(t, dir, a, b))
			opened := reads(t, func() {
				if _, err := WriteOver(dir, Listing(c), changed(b, c), known); err != nil {
					t.Fatal(err)
				}
			})
			holdsTree(t, dir, c)
			if len(opened) < len(c) {
				t.Errorf("opened %d files, want every one of %d compared", len(opened), len(c))
			}
		})
	}
}

// A State survives gob, as the build keeps it between runs.
func TestStateGob(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dist")
	a := base()
	b := with(a, "manifest.json", "m1")
	c := with(b, "manifest.json", "m2")
	known := three(t, dir, a, b)
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(known[0]); err != nil {
		t.Fatal(err)
	}
	var s State
	if err := gob.NewDecoder(&buf).Decode(&s); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(known[0], &s); diff != "" {
		t.Fatalf("after gob (-want +got):\n%s", diff)
	}
	opened := reads(t, func() {
		if _, err := WriteOver(dir, Listing(c), changed(b, c), []*State{&s}); err != nil {
			t.Fatal(err)
		}
	})
	if len(opened) != 1 {
		t.Errorf("opened %v, want only manifest.json", opened)
	}
	holdsTree(t, dir, c)
}

// When dist does not hold the bytes listed for a path data lacks,
// WriteOver says ErrStale and leaves dist as it was.
func TestWriteOverStale(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "outside")
	if err := os.WriteFile(outside, []byte("bob 2"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		tamper func(t *testing.T, dist string)
	}{
		{"other bytes", func(t *testing.T, dist string) {
			os.WriteFile(filepath.Join(dist, "agents/bob/prompt.md"), []byte("bob prompt.MD"), 0o644)
		}},
		{"other size", func(t *testing.T, dist string) {
			os.WriteFile(filepath.Join(dist, "agents/bob/prompt.md"), []byte("bob"), 0o644)
		}},
		{"missing", func(t *testing.T, dist string) {
			os.Remove(filepath.Join(dist, "agents/bob/prompt.md"))
		}},
		{"a link to the right bytes", func(t *testing.T, dist string) {
			name := filepath.Join(dist, "agents/bob/prompt.md")
			os.Remove(name)
			if err := os.Symlink(outside, name); err != nil {
				t.Fatal(err)
			}
		}},
		{"no dist", func(t *testing.T, dist string) {
			os.RemoveAll(dist)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "dist")
			a := base()
			// bob/prompt.md changes in b: .prev does not have it, dist must.
			b := with(a, "manifest.json", "m1", "agents/bob/prompt.md", "bob 2")
			c := with(b, "manifest.json", "m2")
			known := three(t, dir, a, b)
			tc.tamper(t, dir)
			_, statErr := os.Lstat(dir)
			var before []string
			if statErr == nil {
				before = listTree(t, dir)
			}
			_, err := WriteOver(dir, Listing(c), changed(b, c), known)
			if !errors.Is(err, ErrStale) {
				t.Fatalf("WriteOver = %v, want ErrStale", err)
			}
			if !strings.Contains(err.Error(), filepath.Join("agents", "bob", "prompt.md")) {
				t.Errorf("the error does not name the file: %v", err)
			}
			if statErr == nil {
				if diff := cmp.Diff(before, listTree(t, dir)); diff != "" {
					t.Errorf("dist changed (-before +after):\n%s", diff)
				}
			} else if _, err := os.Lstat(dir); err == nil {
				t.Errorf("dist was made")
			}
			if m, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), ".dist.tmp-*")); len(m) > 0 {
				t.Errorf("left %v", m)
			}
			// The full build that follows starts from .prev, which went back.
			if !isPrev(filepath.Join(filepath.Dir(dir), ".dist.prev")) {
				t.Errorf(".dist.prev is gone after ErrStale")
			}
			opened := reads(t, func() {
				if _, err := WriteDirState(dir, c, known); err != nil {
					t.Fatal(err)
				}
			})
			holdsTree(t, dir, c)
			if len(opened) == 0 {
				t.Errorf("the full build after ErrStale compared nothing")
			}
		})
	}
}

// A listing WriteOver cannot write is refused before anything is done.
func TestWriteOverBadListing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dist")
	good := Listing(bundlefile.Tree{"a.json": []byte("a")})
	for _, tc := range []struct {
		name  string
		files []bundlefile.File
		data  bundlefile.Tree
		want  string
	}{
		{"bytes not the listed ones", good, bundlefile.Tree{"a.json": []byte("b")}, "not those its listing says"},
		{"data not listed", good, bundlefile.Tree{"a.json": []byte("a"), "b.json": nil}, "b.json is not listed"},
		{"listed twice", append(slices.Clone(good), good...), bundlefile.Tree{"a.json": []byte("a")}, "listed twice"},
		{"outside", []bundlefile.File{{Path: "../a.json"}}, bundlefile.Tree{"../a.json": nil}, "not a path inside the bundle"},
		{"absolute", []bundlefile.File{{Path: "/a.json"}}, bundlefile.Tree{"/a.json": nil}, "not a path inside the bundle"},
		{"file and folder", Listing(bundlefile.Tree{"a": nil, "a/b": nil}), bundlefile.Tree{"a": nil, "a/b": nil}, "both a file and a folder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := WriteOver(dir, tc.files, tc.data, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) || errors.Is(err, ErrStale) {
				t.Errorf("WriteOver = %v, want an error containing %q", err, tc.want)
			}
			if _, err := os.Lstat(dir); err == nil {
				t.Errorf("dist was made")
			}
		})
	}
}

// A WriteOver killed part way leaves dist as it was; the next one cleans
// up after it.
func TestKilledWriteOverKeepsOldBundle(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dist")
	a := base()
	b := with(a, "manifest.json", "m1")
	c := with(b, "manifest.json", "m2", "agents/ann/agent.json", "ann 2", "agents/bob/agent.json", "bob 2")
	known := three(t, dir, a, b)
	alive := func(n int) bool { return n < 3 }
	if _, err := writeTree(dir, Listing(c), changed(b, c), known, false, alive); !errors.Is(err, errKilled) {
		t.Fatalf("WriteOver = %v, want the simulated kill", err)
	}
	holdsTree(t, dir, b)
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), ".dist.tmp-*")); len(m) != 1 {
		t.Errorf("a killed build should leave its temporary directory; found %v", m)
	}
	if _, err := WriteOver(dir, Listing(c), changed(b, c), known); err != nil {
		t.Fatal(err)
	}
	holdsTree(t, dir, c)
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), ".dist.tmp-*")); len(m) > 0 {
		t.Errorf("temporary directories left: %v", m)
	}
}

// Files and folders get 0644 and 0755 whatever the umask, over .prev
// with a State too.
func TestWriteOverModes(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	dir := filepath.Join(t.TempDir(), "dist")
	a := base()
	b := with(a, "manifest.json", "m1", "new/x.json", "x")
	c := with(b, "manifest.json", "m2", "newer/y.json", "y")
	known := three(t, dir, a, b)
	if _, err := WriteOver(dir, Listing(c), changed(b, c), known); err != nil {
		t.Fatal(err)
	}
	holdsTree(t, dir, c)
}

// Builds into one place, with and without States, take turns: the bundle
// left is one of theirs, whole.
func TestConcurrentWriteOver(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dist")
	first := base()
	if _, err := WriteDirState(dir, first, nil); err != nil {
		t.Fatal(err)
	}
	trees := make([]bundlefile.Tree, 8)
	errs := make(chan error, len(trees))
	for i := range trees {
		v := fmt.Sprint(i)
		trees[i] = with(first, "manifest.json", v, "agents/ann/agent.json", v)
		go func() {
			var err error
			if i%2 == 0 {
				err = WriteDir(dir, trees[i])
			} else {
				// Only the two files change: the rest is in dist whichever
				// build wrote it last.
				_, err = WriteOver(dir, Listing(trees[i]), changed(first, trees[i]), nil)
			}
			errs <- err
		}()
	}
	for range trees {
		if err := <-errs; err != nil {
			t.Errorf("write: %v", err)
		}
	}
	m, _ := os.ReadFile(filepath.Join(dir, "manifest.json"))
	var i int
	if _, err := fmt.Sscan(string(m), &i); err != nil || i < 0 || i >= len(trees) {
		t.Fatalf("manifest.json = %q", m)
	}
	holdsTree(t, dir, trees[i])
}

// A random series of trees (files added, removed, changed; folders come
// and go), written alternately by WriteDir, WriteDirState and WriteOver:
// each time dist holds the tree exactly, and nothing else.
func TestWriteSequence(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 8))
	dir := filepath.Join(t.TempDir(), "dist")
	names := []string{"a", "b", "c", "d"}
	randPath := func() string {
		n := 1 + r.IntN(3)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = names[r.IntN(len(names))]
		}
		return strings.Join(parts, "/") + ".json"
	}
	// Paths whose folders would clash with a file: ".json" on files keeps
	// them apart, as a bundle's names do.
	tree := bundlefile.Tree{"manifest.json": []byte("0")}
	if err := WriteDir(dir, tree); err != nil {
		t.Fatal(err)
	}
	var known []*State
	spared := 0 // WriteOvers that a State spared reading half the files
	steps := 60
	if testing.Short() {
		steps = 25
	}
	for step := range steps {
		next := with(tree, "manifest.json", fmt.Sprint(step))
		for range 1 + r.IntN(6) {
			p := randPath()
			switch r.IntN(3) {
			case 0:
				delete(next, p)
			default:
				next[p] = []byte(fmt.Sprintf("%s@%d", p, r.IntN(4)))
			}
		}
		var (
			s   *State
			err error
			how string
		)
		// States are kept across WriteDir too: it may change a folder a
		// State names, which the stats then show.
		switch n := r.IntN(10); {
		case n < 2:
			how, err = "WriteDir", WriteDir(dir, next)
		case n < 5:
			how = "WriteDirState"
			s, err = WriteDirState(dir, next, known)
		default:
			how = "WriteOver"
			opened := reads(t, func() { s, err = WriteOver(dir, Listing(next), changed(tree, next), known) })
			if len(opened) < len(next)/2 {
				spared++
			}
		}
		if err != nil {
			t.Fatalf("step %d, %s: %v", step, how, err)
		}
		if s != nil {
			statesMatch(t, dir, s)
			known = append(known, aged(s))
			if len(known) > 3 {
				known = known[1:]
			}
		}
		holdsTree(t, dir, next)
		if t.Failed() {
			t.Fatalf("step %d, %s: dist is not the tree", step, how)
		}
		prevTree := tree
		tree = next
		// .prev holds the tree before: the next write starts from it.
		holdsTree(t, filepath.Join(filepath.Dir(dir), ".dist.prev"), with(prevTree, ".gitignore", prevIgnore))
	}
	if spared == 0 {
		t.Error("no WriteOver of the series used a State")
	}
	t.Logf("%d WriteOvers used a State", spared)
}

// Ours vouches for the folder a State names as a previous bundle, which
// a build may replace, while no entry was added to or removed from any
// of its folders; then CheckOutOver needs no IsBundle. A file changed in
// place does not stop it (the build writes it again); an entry added,
// removed or replaced (by a link, a folder) does, and so does any other
// folder, or a State of none.
func TestOurs(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, dist string)
		want   bool
	}{
		{"as written", func(*testing.T, string) {}, true},
		{"a file changed in place", func(t *testing.T, dist string) {
			if err := os.WriteFile(filepath.Join(dist, "agents/bob/prompt.md"), []byte("edited by hand, longer"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"a file added", func(t *testing.T, dist string) {
			if err := os.WriteFile(filepath.Join(dist, "agents/bob/notes.txt"), []byte("mine"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"a file added at the top", func(t *testing.T, dist string) {
			if err := os.WriteFile(filepath.Join(dist, "CNAME"), []byte("mine"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"a file removed", func(t *testing.T, dist string) {
			if err := os.Remove(filepath.Join(dist, "agents/cy/card.json")); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"a file replaced by a link", func(t *testing.T, dist string) {
			p := filepath.Join(dist, "team.json")
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("/etc/passwd", p); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"a folder added", func(t *testing.T, dist string) {
			if err := os.Mkdir(filepath.Join(dist, "agents/zed"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dist := filepath.Join(t.TempDir(), "dist")
			s, err := WriteDirState(dist, base(), nil)
			if err != nil {
				t.Fatal(err)
			}
			tc.change(t, dist)
			for _, s := range []*State{s, aged(s)} { // racily clean folders listed, or all trusted
				known := []*State{s}
				if got := Ours(dist, known); got != tc.want {
					t.Errorf("Ours = %v, want %v", got, tc.want)
				}
			}
		})
	}
	t.Run("another folder", func(t *testing.T) {
		dir := t.TempDir()
		s, err := WriteDirState(filepath.Join(dir, "dist"), base(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := WriteDir(filepath.Join(dir, "other"), base()); err != nil {
			t.Fatal(err)
		}
		if Ours(filepath.Join(dir, "other"), []*State{aged(s)}) || Ours(filepath.Join(dir, "dist"), nil) {
			t.Error("Ours vouched for a folder no State names")
		}
	})
}
