package bundle

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/artifact/bundlefile"
)

// TestManifestListing: the listing taken from a built tree's manifest is
// the one hashing every file gives; a manifest that does not list the
// tree exactly (a file more, another size) is not trusted.
func TestManifestListing(t *testing.T) {
	built := func(sign bool) bundlefile.Tree {
		tree := bundlefile.Tree{"agents/a/agent.json": []byte("{}\n"), "agents/a/prompt.md": []byte("You are A."), "team.json": []byte("{}\n")}
		opts := Options{CharterVersion: "test"}
		if sign {
			opts.SignManifest = func(b []byte) ([]byte, error) { return []byte("sig"), nil }
		}
		var files []bundlefile.File
		for _, p := range tree.Paths() {
			files = append(files, FileOf(p, tree[p]))
		}
		if err := putManifest(tree, files, opts); err != nil {
			t.Fatal(err)
		}
		return tree
	}
	change := func(tree bundlefile.Tree, p, b string) bundlefile.Tree {
		tree[p] = []byte(b)
		if b == "" {
			delete(tree, p)
		}
		return tree
	}
	for name, tree := range map[string]bundlefile.Tree{
		"built":                     built(false),
		"signed":                    built(true),
		"a file the manifest lacks": change(built(false), "notes.txt", "mine"),
		"a file of another size":    change(built(false), "team.json", "{\"x\": 1}\n"),
		"a file missing":            change(built(false), "team.json", ""),
		"no manifest":               bundlefile.Tree{"a.txt": []byte("a")},
	} {
		t.Run(name, func(t *testing.T) {
			if d := cmp.Diff(Listing(tree), ManifestListing(tree)); d != "" {
				t.Errorf("(-hashed +from the manifest):\n%s", d)
			}
		})
	}
}
