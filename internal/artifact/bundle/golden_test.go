package bundle

import (
	"bytes"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/charter-dev/charter/internal/testkit/testrepo"
)

var update = flag.Bool("update", false, "rewrite the golden bundle")

// TestGoldenDevTeam builds examples/dev-team and compares every file with
// the golden bundle in testdata, byte for byte. After an intended change:
// go test ./bundle -run TestGoldenDevTeam -update.
func TestGoldenDevTeam(t *testing.T) {
	const golden = "testdata/golden/dev-team"
	prog := testrepo.Compile(t, os.DirFS("../../../examples/dev-team"))
	tree, err := Build(prog, Options{CharterVersion: "golden", CUEVersion: "golden"})
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.RemoveAll(golden); err != nil {
			t.Fatal(err)
		}
		if err := writeFiles(golden, tree, false, nil); err != nil {
			t.Fatal(err)
		}
		return
	}
	onDisk := map[string]bool{}
	err = filepath.WalkDir(golden, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(golden, p)
		onDisk[filepath.ToSlash(rel)] = true
		return nil
	})
	if err != nil {
		t.Fatalf("reading the golden bundle: %v (write it with -update)", err)
	}
	for _, p := range tree.Paths() {
		want, err := os.ReadFile(filepath.Join(golden, filepath.FromSlash(p)))
		switch {
		case err != nil:
			t.Errorf("%s: not in the golden bundle", p)
		case !bytes.Equal(tree[p], want):
			t.Errorf("%s differs from the golden bundle (rewrite it with -update if the change is intended)", p)
		}
		delete(onDisk, p)
	}
	for p := range onDisk {
		t.Errorf("%s: in the golden bundle, not built", p)
	}
}
