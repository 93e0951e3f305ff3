package source

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/charter-dev/charter/internal/repo/source/sourcetest"
)

// TestPacksRead reads every object of repositories packed by git, with
// deltas by offset and by hash, chains of them, and a second pack, and
// wants each object's type, content and size to be git's (git cat-file
// --batch). An object that is only loose is not the packs' to give.
func TestPacksRead(t *testing.T) {
	for _, c := range []struct {
		name   string
		repack []string
		delta  plumbing.ObjectType
	}{
		{"ofs-delta", []string{"repack", "-adf", "--depth=50", "--window=50"}, plumbing.OFSDeltaObject},
		{"ref-delta", []string{"-c", "repack.useDeltaBaseOffset=false", "repack", "-adf", "--depth=50", "--window=50"}, plumbing.REFDeltaObject},
		{"two packs", []string{"repack", "-d"}, plumbing.OFSDeltaObject},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := sourcetest.New(t)
			var text strings.Builder
			commits := 60
			if testing.Short() {
				commits = 24 // the quick loop's size; the checks below scale with it
			}
			for i := range commits {
				// A file that grows a line at a time: each version a
				// delta of another.
				fmt.Fprintf(&text, "line %d: %s\n", i, strings.Repeat("x", i%7))
				r.Write("big.txt", text.String(), fmt.Sprintf("d/f%d.txt", i%5), strconv.Itoa(i), "empty.txt", "")
				r.Commit(fmt.Sprint("commit ", i))
				if i == commits/2-1 {
					r.Git(c.repack...)
				}
			}
			r.Git(c.repack...)
			r.Write("loose.txt", "only loose\n")
			loose := plumbing.NewHash(r.Git("hash-object", "-w", "loose.txt"))

			ps := openPacks(filepath.Join(r.Dir, ".git", "objects"))
			defer ps.close()
			if len(ps.list) == 0 {
				t.Fatal("no pack opened")
			}
			list := r.Git("cat-file", "--batch-all-objects", "--batch-check=%(objectname)")
			batch := r.GitStdin(list+"\n", "cat-file", "--batch")
			n, deltas, longest := 0, 0, 0
			for rest := []byte(batch + "\n"); len(rest) > 0; n++ {
				head, body, _ := bytes.Cut(rest, []byte("\n"))
				f := strings.Fields(string(head))
				size, _ := strconv.Atoi(f[2])
				want, typ := body[:size], f[1]
				rest = body[size+1:]
				h := plumbing.NewHash(f[0])
				if h == loose {
					if _, _, ok := ps.read(h); ok {
						t.Errorf("%s, only loose, read from a pack", h)
					}
					continue
				}
				p, off, _ := ps.find(h)
				for depth := 0; p != nil; depth++ {
					hd, err := p.header(off)
					if err != nil || hd.typ != plumbing.OFSDeltaObject && hd.typ != plumbing.REFDeltaObject {
						break
					}
					if depth == 0 && hd.typ == c.delta {
						deltas++
					}
					longest = max(longest, depth+1)
					off = hd.base
				}
				gotType, got, ok := ps.read(h)
				if !ok {
					t.Errorf("%s (%s): not read", h, typ)
					continue
				}
				if gotType.String() != typ || !bytes.Equal(got, want) {
					t.Errorf("%s: %s of %d bytes, want %s of %d", h, gotType, len(got), typ, len(want))
				}
				if s, ok := ps.size(h); !ok || s != int64(size) {
					t.Errorf("%s: size %d (%v), want %d", h, s, ok, size)
				}
				// What the cache gives is a copy: changing it changes nothing.
				if _, again, _ := ps.read(h); len(again) > 0 {
					again[0] ^= 0xff
					if _, third, _ := ps.read(h); !bytes.Equal(third, want) {
						t.Fatalf("%s: a caller's change to the content reached the cache", h)
					}
				}
			}
			if n < commits*10/3 || deltas < commits/3 || longest < 3 || len(ps.list) < 2 && c.name == "two packs" {
				t.Fatalf("%d objects, %d of them %s, longest chain %d, %d packs: the repository tests little", n, deltas, c.delta, longest, len(ps.list))
			}
		})
	}
}

// TestPacksDamaged: a damaged index or pack is left to go-git, without a
// panic.
func TestPacksDamaged(t *testing.T) {
	r := sourcetest.New(t)
	for i := range 5 {
		r.Write("a.txt", strings.Repeat(fmt.Sprintln("line", i), 50))
		r.Commit(fmt.Sprint(i))
	}
	r.Git("repack", "-adf")
	dir := filepath.Join(r.Dir, ".git", "objects")
	idx, _ := filepath.Glob(filepath.Join(dir, "pack", "*.idx"))
	var all []plumbing.Hash
	for _, h := range strings.Fields(r.Git("cat-file", "--batch-all-objects", "--batch-check=%(objectname)")) {
		all = append(all, plumbing.NewHash(h))
	}
	b, err := os.ReadFile(idx[0])
	if err != nil {
		t.Fatal(err)
	}
	pack := strings.TrimSuffix(idx[0], ".idx") + ".pack"
	pb, err := os.ReadFile(pack)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(b); i += 7 {
		os.Chmod(idx[0], 0o644)
		damaged := bytes.Clone(b)
		damaged[i] ^= 0x5a
		if err := os.WriteFile(idx[0], damaged, 0o644); err != nil {
			t.Fatal(err)
		}
		ps := openPacks(dir)
		for _, h := range all {
			ps.read(h)
			ps.size(h)
		}
		ps.close()
	}
	os.WriteFile(idx[0], b, 0o644)
	for i := 12; i < len(pb); i += 5 {
		os.Chmod(pack, 0o644)
		damaged := bytes.Clone(pb)
		damaged[i] ^= 0x5a
		if err := os.WriteFile(pack, damaged, 0o644); err != nil {
			t.Fatal(err)
		}
		ps := openPacks(dir)
		for _, h := range all {
			ps.read(h)
			ps.size(h)
		}
		ps.close()
	}
}

// TestPacksLargeOffsets: an index whose offsets are in its table of
// 64-bit offsets (git writes them for objects past 2 GiB; index-pack
// --index-version=2,OFFSET forces them past OFFSET) gives the same objects
// as git.
func TestPacksLargeOffsets(t *testing.T) {
	r := sourcetest.New(t)
	for i := range 20 {
		r.Write("a.txt", strings.Repeat(fmt.Sprintln("line", i), 20+i), "b.txt", fmt.Sprint(i))
		r.Commit(fmt.Sprint(i))
	}
	r.Git("repack", "-adf")
	dir := filepath.Join(r.Dir, ".git", "objects")
	idx, _ := filepath.Glob(filepath.Join(dir, "pack", "*.idx"))
	if len(idx) != 1 {
		t.Fatalf("%d packs", len(idx))
	}
	before, err := os.Stat(idx[0])
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(idx[0])
	r.Git("index-pack", "--index-version=2,0x40", strings.TrimSuffix(idx[0], ".idx")+".pack")
	after, err := os.Stat(idx[0])
	if err != nil {
		t.Fatal(err)
	}
	if after.Size() <= before.Size() {
		t.Fatalf("the index has no large offsets (%d bytes, %d before)", after.Size(), before.Size())
	}
	ps := openPacks(dir)
	defer ps.close()
	list := r.Git("cat-file", "--batch-all-objects", "--batch-check=%(objectname)")
	batch := r.GitStdin(list+"\n", "cat-file", "--batch")
	for rest := []byte(batch + "\n"); len(rest) > 0; {
		head, body, _ := bytes.Cut(rest, []byte("\n"))
		f := strings.Fields(string(head))
		size, _ := strconv.Atoi(f[2])
		want := body[:size]
		rest = body[size+1:]
		h := plumbing.NewHash(f[0])
		typ, got, ok := ps.read(h)
		if !ok || typ.String() != f[1] || !bytes.Equal(got, want) {
			t.Errorf("%s: %s of %d bytes (%v), want %s of %d", h, typ, len(got), ok, f[1], size)
		}
	}
}
