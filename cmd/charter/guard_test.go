package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// guardedDirs are the repository's folders the tests of this package read
// and must never write: a test that passes charter a relative --out (with
// -C elsewhere, --out is still relative to where charter runs) wrote dist/,
// ref/ and site/ into cmd/charter itself, and they were committed.
var guardedDirs = []string{".", "../../examples", "../../testdata"}

// guard runs the tests, then fails the run when a file or folder appeared
// in guardedDirs: every test writes under its own t.TempDir() (testscript's
// $WORK is one).
type guard struct{ m *testing.M }

func (g guard) Run() int {
	before := listTrees(guardedDirs)
	code := g.m.Run()
	var added []string
	for _, p := range listTrees(guardedDirs) {
		if _, found := slices.BinarySearch(before, p); !found {
			added = append(added, p)
		}
	}
	if len(added) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: the tests wrote into the repository (write under t.TempDir() instead; give --out an absolute path there):\n")
		for i, p := range added {
			if i == 20 {
				fmt.Fprintf(os.Stderr, "\t... and %d more\n", len(added)-i)
				break
			}
			fmt.Fprintf(os.Stderr, "\t%s\n", p)
		}
		if code == 0 {
			code = 1
		}
	}
	return code
}

// listTrees returns the sorted paths of every file and folder under dirs.
func listTrees(dirs []string) []string {
	var paths []string
	for _, dir := range dirs {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil {
				paths = append(paths, p)
			}
			return nil
		})
	}
	slices.Sort(paths)
	return paths
}

// TestGuardCatches shows the guard's check: a file written into the
// package's folder is listed as new.
func TestGuardCatches(t *testing.T) {
	dir := t.TempDir()
	before := listTrees([]string{dir})
	if err := os.MkdirAll(filepath.Join(dir, "dist"), 0o755); err != nil {
		t.Fatal(err)
	}
	after := listTrees([]string{dir})
	if len(after) != len(before)+1 || after[len(after)-1] != filepath.Join(dir, "dist") {
		t.Errorf("listTrees after writing dist: %v, before %v", after, before)
	}
}
