package bundle

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/charter-dev/charter/internal/artifact/bundlefile"
)

// bigTree is a bundle's shape at 10,000 agents: three files in each
// agent's folder (agent.json, prompt.md, card.json; about 9 KB each, as
// the generated repository's) under agents/, 30,001 files in 10,001
// folders. v changes the three files of agent 5000 and manifest.json.
func bigTree(v int) bundlefile.Tree {
	const agents = 10_000
	t := make(bundlefile.Tree, 3*agents+1)
	filler := bytes.Repeat([]byte("0123456789abcdef"), 1024) // 16 KiB
	for i := range agents {
		id := fmt.Sprintf("agent-%05d", i)
		ver := 0
		if i == agents/2 {
			ver = v
		}
		for j, f := range []string{"agent.json", "prompt.md", "card.json"} {
			head := fmt.Sprintf("%s %s v%d\n", id, f, ver)
			t["agents/"+id+"/"+f] = append([]byte(head), filler[:4096*(j+1)-len(head)]...)
		}
	}
	t["manifest.json"] = []byte(fmt.Sprintf("manifest v%d", v))
	return t
}

// BenchmarkWriteOver30k writes, over the previous bundle with its State,
// the bundle of 10,000 agents after one agent's edit (its three files
// and manifest.json change), as an incremental build does: data holds
// the four files, the rest is in dist. Compare BenchmarkWriteDir30k.
func BenchmarkWriteOver30k(b *testing.B) {
	trees := []bundlefile.Tree{bigTree(1), bigTree(2)}
	lists := []([]bundlefile.File){Listing(trees[0]), Listing(trees[1])}
	data := []bundlefile.Tree{changed(trees[1], trees[0]), changed(trees[0], trees[1])}
	out := filepath.Join(b.TempDir(), "dist")
	var known []*State
	for i := range 2 {
		s, err := WriteDirState(out, trees[i], known)
		if err != nil {
			b.Fatal(err)
		}
		known = append(known, s)
	}
	// The first two WriteOvers read the files the full writes made in
	// their last racy window (100 ms; here about 1,000 files), once: the
	// benchmark is of the writes after them.
	for i := range 2 {
		s, err := WriteOver(out, lists[i], data[i], known)
		if err != nil {
			b.Fatal(err)
		}
		known = append(known[len(known)-1:], s)
	}
	var opens atomic.Int64
	opened = func(string) { opens.Add(1) }
	defer func() { opened = nil }()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		s, err := WriteOver(out, lists[i%2], data[i%2], known)
		if err != nil {
			b.Fatal(err)
		}
		known = append(known[len(known)-1:], s)
		i++
	}
	b.ReportMetric(float64(opens.Load())/float64(i), "opens/op")
}

// BenchmarkWriteDir30k writes the bundle of 10,000 agents over the
// previous one after one agent's edit, comparing every file: the write a
// build does without a State.
func BenchmarkWriteDir30k(b *testing.B) {
	trees := []bundlefile.Tree{bigTree(1), bigTree(2)}
	out := filepath.Join(b.TempDir(), "dist")
	for i := range 2 {
		if err := WriteDir(out, trees[i]); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	i := 0
	for b.Loop() {
		if err := WriteDir(out, trees[i%2]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkLstat30k is the floor BenchmarkWriteOver30k is measured
// against: one Lstat of every file and folder of the same bundle, on the
// same goroutines.
func BenchmarkLstat30k(b *testing.B) {
	tree := bigTree(1)
	out := filepath.Join(b.TempDir(), "dist")
	if err := WriteDir(out, tree); err != nil {
		b.Fatal(err)
	}
	w, err := newWriter(out, nil, tree)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		for _, level := range w.levels {
			parallel(level, func(d string) {
				os.Lstat(filepath.Join(out, filepath.FromSlash(d)))
				for _, p := range w.byDir[d] {
					os.Lstat(filepath.Join(out, filepath.FromSlash(p)))
				}
			})
		}
	}
}

// BenchmarkStateGob30k encodes and decodes the State of a 30,000-file
// bundle, as a build that keeps it between runs does.
func BenchmarkStateGob30k(b *testing.B) {
	out := filepath.Join(b.TempDir(), "dist")
	s, err := WriteDirState(out, bigTree(1), nil)
	if err != nil {
		b.Fatal(err)
	}
	var size int
	b.ResetTimer()
	for b.Loop() {
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(s); err != nil {
			b.Fatal(err)
		}
		size = buf.Len()
		var got State
		if err := gob.NewDecoder(&buf).Decode(&got); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(size), "bytes")
}

// changed returns the part of next that differs from prev.
func changed(prev, next bundlefile.Tree) bundlefile.Tree {
	out := bundlefile.Tree{}
	for p, b := range next {
		if old, ok := prev[p]; !ok || !bytes.Equal(old, b) {
			out[p] = b
		}
	}
	return out
}
