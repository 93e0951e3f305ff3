package source

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/charter-dev/charter/internal/repo/source/sourcetest"
)

// TestTreeCache: the cache keeps at least the maxTrees trees used last,
// and at most twice that.
func TestTreeCache(t *testing.T) {
	o := &objects{}
	hash := func(i int) plumbing.Hash { return plumbing.Hash{byte(i), byte(i >> 8), 1} }
	kids := []*node{{name: "a"}}
	for i := range 3 * maxTrees {
		o.cacheTree(hash(i), kids)
		// Tree 0 is used all along: it is never dropped.
		if _, ok := o.cachedTree(hash(0)); !ok {
			t.Fatalf("after %d trees, tree 0 was dropped", i+1)
		}
	}
	for i := 2 * maxTrees; i < 3*maxTrees; i++ {
		if _, ok := o.cachedTree(hash(i)); !ok {
			t.Errorf("tree %d, one of the last %d, was dropped", i, maxTrees)
		}
	}
	if _, ok := o.cachedTree(hash(1)); ok {
		t.Errorf("tree 1, used once long ago, is still cached")
	}
	if n := len(o.trees) + len(o.oldTrees); n > 2*maxTrees {
		t.Errorf("the cache holds %d trees, more than %d", n, 2*maxTrees)
	}
}

// TestCommitGraphFarChunk: a commit-graph file whose checksum holds but
// whose chunk table points far past its end (a crafted file, or one
// written by a faulty tool) is no panic: the lookup fails and the commit
// is decoded instead. The page cache's slot for such an offset came out
// negative.
func TestCommitGraphFarChunk(t *testing.T) {
	r := sourcetest.New(t)
	r.Write("a.txt", "a\n")
	head := plumbing.NewHash(r.Commit("one"))
	r.Git("commit-graph", "write", "--reachable")
	name := filepath.Join(r.Dir, ".git", "objects", "info", "commit-graph")
	orig, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, far := range []uint64{1<<62 + 7<<12, 0x123456789abcd000, 5<<58 + 3<<12} {
		for _, chunk := range []string{"OIDF", "OIDL", "CDAT"} {
			b := bytes.Clone(orig)
			// The chunk table follows the 8-byte header: 4 bytes of ID
			// and 8 of offset a chunk.
			i := bytes.Index(b[8:], []byte(chunk))
			if i < 0 || (i%12) != 0 {
				t.Fatalf("no chunk %s in the table", chunk)
			}
			binary.BigEndian.PutUint64(b[8+i+4:], far)
			sum := sha1.Sum(b[:len(b)-sha1.Size])
			copy(b[len(b)-sha1.Size:], sum[:])
			if err := os.WriteFile(name, b, 0o644); err != nil {
				t.Fatal(err)
			}
			repo, err := Open(r.Dir)
			if err != nil {
				t.Fatal(err)
			}
			n, err := repo.Node(head)
			if err != nil || n.Hash != head || len(n.Parents) != 0 {
				t.Errorf("%s at %#x: node %v, %v", chunk, far, n, err)
			}
			repo.Close()
		}
	}
}

// TestLooseObjectBomb: a loose object whose header claims 10 bytes but
// whose data inflates to far more is refused after the 10, not inflated
// whole first (1 GiB took 16 to 36 s and 4 to 5 GB). Here 64 MiB: the
// read must allocate a small part of that and fail.
func TestLooseObjectBomb(t *testing.T) {
	r := sourcetest.New(t)
	r.Write("a.cue", "package charter\n")
	r.Commit("one")
	blob := plumbing.NewHash(r.Git("rev-parse", "HEAD:a.cue"))
	name := filepath.Join(r.Dir, ".git", "objects", blob.String()[:2], blob.String()[2:])
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	zw.Write([]byte("blob 10\x00"))
	zeros := make([]byte, 1<<20)
	for range 64 {
		zw.Write(zeros)
	}
	zw.Close()
	os.Chmod(name, 0o644)
	if err := os.WriteFile(name, z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	repo, err := Open(r.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	b, err := repo.Blob(blob)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "more than the 10 bytes its header gives") {
		t.Errorf("Blob = %d bytes, %v; want an error saying the object inflates past its header's size", len(b), err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 8<<20 {
		t.Errorf("reading the object allocated %d MiB: it was inflated whole", n>>20)
	}
	// A loose object that is what its header says reads as before.
	r.Write("b.cue", "package charter\n// b\n")
	r.Commit("two")
	good := plumbing.NewHash(r.Git("rev-parse", "HEAD:b.cue"))
	if b, err := repo.Blob(good); err != nil || string(b) != "package charter\n// b\n" {
		t.Errorf("Blob(good) = %q, %v", b, err)
	}
}
