//go:build linux || darwin

package evalcache_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charter-dev/charter/internal/config/evalcache"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/repo/source"
	"github.com/charter-dev/charter/internal/testkit/gen"
)

// counting is a file system that counts the files opened (not folders).
type counting struct {
	fs.FS
	mu     sync.Mutex
	opened []string
}

func (c *counting) Open(name string) (fs.File, error) {
	f, err := c.FS.Open(name)
	if err == nil && strings.HasSuffix(name, ".cue") {
		c.mu.Lock()
		c.opened = append(c.opened, name)
		c.mu.Unlock()
	}
	return f, err
}

// TestReadTrusting: a working tree's file whose Lstat is the one recorded
// (and not racily clean) is not read; one rewritten, even to the same
// size with its modification time put back, is; one that changes after
// it was trusted makes the Inputs torn when it is read.
func TestReadTrusting(t *testing.T) {
	root := t.TempDir()
	write := func(rel, src string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, rel), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.cue", "package charter\n\nagents: a: name: \"A\"\n")
	write("b.cue", "package charter\n\nagents: b: name: \"B\"\n")
	open := func() *counting {
		fsys, err := source.Dir(root)
		if err != nil {
			t.Fatal(err)
		}
		return &counting{FS: fsys}
	}
	first, ok := evalcache.Read(open().FS)
	if !ok || first.Stats() == nil {
		t.Fatal("no stats recorded")
	}
	// Right after the read, every file is racily clean: read again.
	c := open()
	if _, ok := evalcache.ReadTrusting(c, first.Sums(), first.Stats()); !ok || len(c.opened) != 2 {
		t.Fatalf("racily clean files: opened %v, want both", c.opened)
	}
	aged := *first.Stats()
	aged.At += int64(10 * time.Second)

	c = open()
	in, ok := evalcache.ReadTrusting(c, first.Sums(), &aged)
	if !ok || len(c.opened) != 0 {
		t.Fatalf("unchanged files: opened %v, want none", c.opened)
	}
	if in.Digest() != first.Digest() {
		t.Error("the trusted sums differ from the read ones")
	}

	// The same size, the modification time put back: the change time
	// gives it away.
	fi, err := os.Stat(filepath.Join(root, "b.cue"))
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	write("b.cue", "package charter\n\nagents: b: name: \"C\"\n")
	if err := os.Chtimes(filepath.Join(root, "b.cue"), fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	c = open()
	in, ok = evalcache.ReadTrusting(c, first.Sums(), &aged)
	if !ok || strings.Join(c.opened, " ") != "b.cue" {
		t.Fatalf("b.cue rewritten: opened %v, want b.cue alone", c.opened)
	}
	if in.Sums()["b.cue"] == first.Sums()["b.cue"] {
		t.Error("b.cue's sum is the old one")
	}

	// Trusted, then changed before it is read: torn.
	in, ok = evalcache.ReadTrusting(open(), first.Sums(), &aged)
	if !ok || in.Torn() {
		t.Fatal("torn before anything was read")
	}
	time.Sleep(20 * time.Millisecond)
	write("a.cue", "package charter\n\nagents: a: name: \"Z\"\n")
	if _, ok := in.Src("a.cue"); !ok || !in.Torn() {
		t.Error("a trusted file read with other bytes than its sum's: not torn")
	}
}

// TestLintTrustsUnchangedFiles: lint through the cache over a working
// tree reads no file whose Lstat is the one the last run recorded; an
// edited file is read, and its findings are fresh.
func TestLintTrustsUnchangedFiles(t *testing.T) {
	root, cache := t.TempDir(), t.TempDir()
	if err := gen.Write(root, 30); err != nil {
		t.Fatal(err)
	}
	time.Sleep(150 * time.Millisecond) // past the racy window
	var c *counting
	open := revision.OpenDir
	revision.OpenDir = func(dir string) (fs.FS, error) {
		fsys, err := open(dir)
		c = &counting{FS: fsys}
		return c, err
	}
	defer func() { revision.OpenDir = open }()
	lint := func() (*evalcache.Outcome, string) {
		t.Helper()
		var log strings.Builder
		out, err := evalcache.Lint(revision.Source{Dir: root}, evalcache.Options{Dir: cache, Log: &log})
		if err != nil {
			t.Fatal(err)
		}
		return out, log.String()
	}
	first, _ := lint()
	if len(c.opened) == 0 {
		t.Fatal("the first run read no file")
	}
	time.Sleep(150 * time.Millisecond)
	again, log := lint()
	if len(c.opened) != 0 || !strings.Contains(log, "every file as last time") {
		t.Errorf("a run over unchanged files opened %v: %s", c.opened, log)
	}
	if !reflect.DeepEqual(first, again) {
		t.Error("the outcome changed")
	}
	p := filepath.Join(root, "agents", "a0003.cue")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), "budget_limit:", "budget_limit: 100000, _was:", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	edited, log := lint()
	if !slices.Contains(c.opened, "agents/a0003.cue") || reflect.DeepEqual(first, edited) {
		t.Errorf("the edited file: opened %v, outcome unchanged: %s", c.opened, log)
	}
}
