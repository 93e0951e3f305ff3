package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// failingWriter fails every write, as a full disk does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestWriteFailure: output that could not be written fails the command
// with exit 2 and says so, once; before, charter render x > /dev/full
// exited 0 and wrote nothing.
func TestWriteFailure(t *testing.T) {
	dir := starterRepo(t, false)
	for _, args := range [][]string{
		{"version"},
		{"-C", dir, "render", "ann"},
		{"-C", dir, "validate", "--format", "json"},
	} {
		var stderr bytes.Buffer
		code := run(args, failingWriter{}, &stderr)
		if want := "charter: writing standard output: no space left on device\n"; code != exitError || stderr.String() != want {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", args, code, stderr.String(), want)
		}
	}
	// The real thing: /dev/full fails every write with ENOSPC.
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Fatalf("no /dev/full: %v", err)
	}
	defer full.Close()
	var stderr bytes.Buffer
	if code := run([]string{"-C", dir, "render", "ann"}, full, &stderr); code != exitError || !strings.Contains(stderr.String(), "no space left on device") {
		t.Errorf("render > /dev/full: exit %d, stderr %q", code, stderr.String())
	}
}

// TestErrorKinds: a plain failure prints its message (and hint) only; a
// usage error points at the command's help; neither is a panic.
func TestErrorKinds(t *testing.T) {
	dir := starterRepo(t, false)
	afile := dir + "/charter.cue"
	for _, c := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"bogus"}, "charter: unknown command \"bogus\" for \"charter\" (see 'charter --help')\n"},
		// cobra's suggestion, on one line, not its line feeds escaped.
		{[]string{"biuld"}, "charter: unknown command \"biuld\" for \"charter\"; did you mean \"build\"? (see 'charter --help')\n"},
		{[]string{"log"}, "charter: log takes one argument, AGENT; got none (see 'charter log --help')\n"},
		{[]string{"why", "a", "b", "c"}, "charter: why takes two arguments, AGENT and PATH; got 3: \"a\" \"b\" \"c\" (see 'charter why --help')\n"},
		{[]string{"version", "--format", "xml"}, "charter: unknown format \"xml\"; valid formats: text, json\n"},
		{[]string{"version", "--bogus"}, "charter: unknown flag: --bogus (see 'charter version --help')\n"},
		{[]string{"-C", dir, "validate", "--rev", "HEAD", "--staged"}, "charter: --rev and --staged exclude each other: choose one\n"},
		// A failure that is not the command line's: no pointer at --help.
		{[]string{"-C", dir, "docs", "--out", afile}, "charter: cannot write the reference to " + afile + ": it is a file, not a directory; remove it or choose another directory\n"},
	} {
		code, _, stderr := runArgs(c.args...)
		if code != exitError {
			t.Errorf("%v: exit %d, want 2", c.args, code)
		}
		if d := cmp.Diff(c.stderr, stderr); d != "" {
			t.Errorf("%v: stderr (-want +got):\n%s", c.args, d)
		}
	}
}

// TestEvalOnErrorAllowEscapes: the reason eval prints on stderr when
// --on-error allow lets a call through comes from the bundle's path (the
// user's or the runtime's): control characters in it are escaped, as in
// every other text output.
func TestEvalOnErrorAllowEscapes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dist\x1b[2J")
	var stdout, stderr bytes.Buffer
	run([]string{"eval", "--bundle", dir, "--agent", "ann", "--on-error", "allow"}, &stdout, &stderr)
	if strings.Contains(stderr.String(), "\x1b") || !strings.Contains(stderr.String(), "charter: ") {
		t.Errorf("stderr %q: want the reason, escaped", stderr.String())
	}
}
