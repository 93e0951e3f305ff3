//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package rules_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/charter-dev/charter/rules"
)

func record(st *rules.Store, key string) error {
	_, err := st.Update(key, func(s *rules.Session) error {
		s.Record(rules.Call{Tool: "Read", Args: map[string]any{"file_path": "a"}})
		return nil
	})
	return err
}

// The store never follows a link and never writes outside its folder; a
// folder or a file that is not what it made is an error, which the caller
// turns into a deny.
func TestStoreRefusesWhatItDidNotMake(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "state")
	st := &rules.Store{Dir: dir, LockTimeout: 100 * time.Millisecond}
	if err := record(st, "s1"); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(tmp, "outside.txt")
	if err := os.WriteFile(outside, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	check := func(name string, want string) {
		t.Helper()
		err := record(st, "s1")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want it to say %q", name, err, want)
		}
		if b, _ := os.ReadFile(outside); len(b) != 0 {
			t.Errorf("%s: the store wrote outside its folder: %q", name, b)
		}
	}

	// A link in place of the session file, and of its lock file.
	os.Remove(filepath.Join(dir, "s1.jsonl"))
	os.Symlink(outside, filepath.Join(dir, "s1.jsonl"))
	check("session link", "symbolic link")
	os.Remove(filepath.Join(dir, "s1.jsonl"))
	os.Remove(filepath.Join(dir, "s1.lock"))
	os.Symlink(outside, filepath.Join(dir, "s1.lock"))
	check("lock link", "symbolic link")
	os.Remove(filepath.Join(dir, "s1.lock"))

	// A folder, and a FIFO (whose open would hang), in place of the file.
	os.Mkdir(filepath.Join(dir, "s1.jsonl"), 0o700)
	check("folder", "not a regular file")
	os.Remove(filepath.Join(dir, "s1.jsonl"))
	if err := syscall.Mkfifo(filepath.Join(dir, "s1.jsonl"), 0o600); err == nil {
		check("fifo", "not a regular file")
		os.Remove(filepath.Join(dir, "s1.jsonl"))
	}

	// The folder moved away and a file, or a link, put in its place.
	os.Rename(dir, dir+".away")
	os.WriteFile(dir, []byte("x"), 0o600)
	check("file for the folder", "not a folder")
	os.Remove(dir)
	os.Symlink(dir+".away", dir)
	check("link for the folder", "symbolic link")
	// A trailing slash makes open follow the link.
	slash := &rules.Store{Dir: dir + "/", LockTimeout: 100 * time.Millisecond}
	if err := record(slash, "s1"); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("link for the folder, named with a slash: err = %v", err)
	}
	os.Remove(dir)
	os.Rename(dir+".away", dir)
	if err := record(st, "s1"); err != nil {
		t.Fatalf("back in place: %v", err)
	}

	// The marker is not written through a link either.
	os.Remove(filepath.Join(dir, rules.OwnMarker))
	os.Symlink(outside, filepath.Join(dir, rules.OwnMarker))
	if err := rules.MarkOwn(dir); err == nil {
		t.Error("MarkOwn wrote through a link")
	}
	if b, _ := os.ReadFile(outside); len(b) != 0 {
		t.Errorf("MarkOwn wrote outside: %q", b)
	}
}

// A lock held past the timeout is an error, not a pass.
func TestStoreLockTimeout(t *testing.T) {
	dir := t.TempDir()
	st := &rules.Store{Dir: dir, LockTimeout: 200 * time.Millisecond}
	if err := record(st, "s1"); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "s1.lock"), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = record(st, "s1")
	if err == nil || !strings.Contains(err.Error(), "stayed locked") {
		t.Errorf("err = %v", err)
	}
	if d := time.Since(start); d < 200*time.Millisecond {
		t.Errorf("waited %v", d)
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	if err := record(st, "s1"); err != nil {
		t.Errorf("after the lock was released: %v", err)
	}
}

// Remove deletes a session, its agents' sessions and their lock files; a
// session of another key is left alone.
func TestStoreRemoveLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	st := &rules.Store{Dir: dir}
	for _, k := range []string{"s1", rules.AgentKey("s1", "a0123"), rules.AgentKey("s1", "weird/agent"), "s10", rules.AgentKey("s10", "b")} {
		if err := record(st, k); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Remove("s1"); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	want := []string{"s10.jsonl", "s10.lock", "s10~b.jsonl", "s10~b.lock"}
	left = slices.DeleteFunc(left, func(n string) bool { return n == rules.OwnMarker })
	if !slices.Equal(left, want) {
		t.Errorf("left %v, want %v", left, want)
	}
}
