package source

import (
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// FuzzParseTree checks that no tree object, however corrupt, makes the
// parser panic or return a name a file system path cannot hold, and that
// each name's offset is where the name is.
func FuzzParseTree(f *testing.F) {
	f.Add([]byte("100644 a.cue\x00" + string(make([]byte, 20)) + "40000 sub\x00" + string(make([]byte, 20))))
	f.Add([]byte("100644 \x00"))
	f.Add([]byte("1 x\x00abc"))
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = parseTree(b, func(_ filemode.FileMode, name []byte, off int, _ plumbing.Hash) bool {
			if len(name) == 0 || string(name) == "." || string(name) == ".." {
				t.Fatalf("parseTree passed the name %q", name)
			}
			if off < 0 || off+len(name) > len(b) || string(b[off:off+len(name)]) != string(name) {
				t.Fatalf("parseTree passed the name %q at offset %d", name, off)
			}
			return true
		})
	})
}

// FuzzRevision checks that revision and REV:PATH parsing never panics and
// that what they accept is free of the syntax go-git gets wrong.
func FuzzRevision(f *testing.F) {
	for _, s := range []string{"HEAD", "HEAD~2^2", "v1.2.0:configs/agents", "HEAD@{1}", "HEAD^{tree}", "main..x", "~", "^", "a~99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if name, _, err := parseRev(s); err == nil {
			for _, bad := range []string{":", "@{", "^{", ".."} {
				if strings.Contains(s, bad) {
					t.Fatalf("parseRev(%q) accepted %q (name %q)", s, bad, name)
				}
			}
		}
		_, _, _, _ = SplitRevPath(s)
	})
}
