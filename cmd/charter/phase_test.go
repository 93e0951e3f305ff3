package main

import (
	"os"
	"testing"
	"time"

	"github.com/charter-dev/charter/bundle"
)

func TestPhases(t *testing.T) {
	dir := os.Getenv("PHASE_DIR")
	if dir == "" {
		t.Skip()
	}
	g := &globals{dir: dir, stdout: os.Stdout, stderr: os.Stderr}
	t0 := time.Now()
	l, err := loadWorktree(g)
	if err != nil {
		t.Fatal(err)
	}
	t1 := time.Now()
	prog, _ := check(l)
	prog.ReleaseSource()
	l = nil
	t2 := time.Now()
	tree, err := bundle.Build(prog, bundle.Options{})
	t3 := time.Now()
	if err := bundle.WriteDir("/tmp/phase-out", tree); err != nil {
		t.Fatal(err)
	}
	t4 := time.Now()
	t.Logf("load+validate %v compile %v bundle %v write %v", t1.Sub(t0), t2.Sub(t1), t3.Sub(t2), t4.Sub(t3))
}
