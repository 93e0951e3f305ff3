package source

import (
	"bytes"
	"compress/zlib"
	"container/list"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
)

// packs reads objects from the pack files of a git directory with ReadAt,
// holding of each pack's index only a sample of its names (see pack):
// go-git decodes every index whole and builds a map from offset to hash
// of every object, about 80 bytes an object, which made a history walk's
// memory grow with the repository. The bases of deltas are kept in a
// cache bounded in bytes.
//
// A pack whose index is not version 2, or that cannot be read, is left to
// go-git, as are loose objects and those of alternates: read reports
// ok=false for them.
type packs struct {
	list  []*pack
	cache *baseCache
	z     io.ReadCloser // a zlib reader to Reset, once one was made
}

// pack is one pack file and its index. Of the index only the fan-out
// table and every sampleEvery-th object name are held in memory (about
// a third of a byte an object); a lookup reads the block of names between
// two samples and the object's offset with ReadAt. Mapping the index, as
// git does, made the pages a walk touches, most of the file, count in the
// process's memory.
type pack struct {
	f   *os.File // the .pack
	idx *os.File // the .idx
	// n is the number of objects.
	n      int
	fanout [256]uint32
	sample []byte
	// names, offs and offs64 are where the index's tables start; offs64n
	// is the number of large offsets.
	names, offs, offs64 int64
	offs64n             int64
	block               [20 * sampleEvery]byte
	r                   packReader // reads objects, one at a time
}

const (
	idxHeader   = 8
	idxFanout   = 256 * 4
	idxTrailer  = 2 * 20
	sampleEvery = 64
	maxChain    = 10000 // git's own limit on a delta chain is 4095
	baseCacheMB = 2
)

// openPacks opens the packs of the objects directory dir. Packs it cannot
// open are left out (go-git reads them).
func openPacks(dir string) *packs {
	ps := &packs{cache: newBaseCache(baseCacheMB << 20)}
	names, _ := filepath.Glob(filepath.Join(dir, "pack", "pack-*.idx"))
	type dated struct {
		p     *pack
		mtime int64
	}
	var found []dated
	for _, name := range names {
		p, err := openPack(name)
		if err != nil {
			continue
		}
		var mtime int64
		if fi, err := p.f.Stat(); err == nil {
			mtime = fi.ModTime().UnixNano()
		}
		found = append(found, dated{p, mtime})
	}
	// Newest first, as git looks them up: recent objects are in recent
	// packs.
	sort.SliceStable(found, func(i, j int) bool { return found[i].mtime > found[j].mtime })
	for _, d := range found {
		ps.list = append(ps.list, d.p)
	}
	return ps
}

// openPack opens the pack of the index idxName: it checks the index is
// version 2 and its checksum, and reads its fan-out and samples.
func openPack(idxName string) (*pack, error) {
	idx, err := os.Open(idxName)
	if err != nil {
		return nil, err
	}
	p := &pack{idx: idx}
	if err := p.readIndex(); err != nil {
		idx.Close()
		return nil, fmt.Errorf("%s: %w", idxName, err)
	}
	f, err := os.Open(strings.TrimSuffix(idxName, ".idx") + ".pack")
	if err != nil {
		idx.Close()
		return nil, err
	}
	p.f = f
	return p, nil
}

func (p *pack) readIndex() error {
	fi, err := p.idx.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()
	var head [idxHeader + idxFanout]byte
	if size < idxHeader+idxFanout+idxTrailer {
		return errors.New("not a version 2 pack index")
	}
	if _, err := p.idx.ReadAt(head[:], 0); err != nil {
		return err
	}
	if !bytes.Equal(head[:8], []byte{0xff, 't', 'O', 'c', 0, 0, 0, 2}) {
		return errors.New("not a version 2 pack index")
	}
	prev := uint32(0)
	for i := range 256 {
		v := binary.BigEndian.Uint32(head[idxHeader+4*i:])
		if v < prev {
			return errors.New("pack index fan-out is not sorted")
		}
		p.fanout[i], prev = v, v
	}
	n := int64(prev)
	rest := size - idxHeader - idxFanout - idxTrailer
	if n > rest/28 || (rest-28*n)%8 != 0 {
		return errors.New("pack index has the wrong size")
	}
	p.n = int(n)
	p.names = idxHeader + idxFanout
	p.offs = p.names + 24*n // names, then CRC-32s
	p.offs64 = p.offs + 4*n
	p.offs64n = (rest - 28*n) / 8
	// One pass over the file checks its checksum and takes the samples.
	s := &sampler{at: p.names, n: p.n, sample: make([]byte, 20*((p.n+sampleEvery-1)/sampleEvery))}
	sum := sha1.New()
	if _, err := io.Copy(io.MultiWriter(sum, s), io.NewSectionReader(p.idx, 0, size-sha1.Size)); err != nil {
		return err
	}
	var want [sha1.Size]byte
	if _, err := p.idx.ReadAt(want[:], size-sha1.Size); err != nil {
		return err
	}
	if !bytes.Equal(sum.Sum(nil), want[:]) {
		return errors.New("pack index checksum mismatch")
	}
	p.sample = s.sample
	return nil
}

// sampler takes every sampleEvery-th name of an index's table of names,
// which starts at offset at, as the index is written to it.
type sampler struct {
	at     int64 // where the names start
	n      int
	pos    int64 // bytes written so far
	sample []byte
}

func (s *sampler) Write(b []byte) (int, error) {
	const stride = 20 * sampleEvery
	end := s.pos + int64(len(b))
	k := int64(0)
	if s.pos > s.at {
		k = (s.pos - s.at) / stride
	}
	for ; 20*k < int64(len(s.sample)); k++ {
		start := s.at + stride*k
		if start >= end {
			break
		}
		// Copy the part of sample k, [start, start+20), within b.
		from, to := max(start, s.pos), min(start+20, end)
		if from < to {
			copy(s.sample[20*k+from-start:], b[from-s.pos:to-s.pos])
		}
	}
	s.pos = end
	return len(b), nil
}

// find returns the offset of object h in the pack.
func (p *pack) find(h plumbing.Hash) (int64, bool) {
	lo, hi := 0, int(p.fanout[h[0]])
	if h[0] > 0 {
		lo = int(p.fanout[h[0]-1])
	}
	if lo >= hi || hi > p.n {
		return 0, false
	}
	// The block of names that holds h, if any: the one after the last
	// sample not above h.
	k := sort.Search(len(p.sample)/20, func(k int) bool {
		return bytes.Compare(p.sample[20*k:20*k+20], h[:]) > 0
	}) - 1
	if k < 0 {
		return 0, false
	}
	start, end := max(k*sampleEvery, lo), min((k+1)*sampleEvery, hi)
	if start >= end {
		return 0, false
	}
	block := p.block[:20*(end-start)]
	if _, err := p.idx.ReadAt(block, p.names+20*int64(start)); err != nil {
		return 0, false
	}
	i, ok := sort.Find(end-start, func(i int) int { return bytes.Compare(h[:], block[20*i:20*i+20]) })
	if !ok {
		return 0, false
	}
	var b [8]byte
	if _, err := p.idx.ReadAt(b[:4], p.offs+4*int64(start+i)); err != nil {
		return 0, false
	}
	off := binary.BigEndian.Uint32(b[:4])
	if off&0x80000000 == 0 {
		return int64(off), true
	}
	j := int64(off & 0x7fffffff)
	if j >= p.offs64n {
		return 0, false
	}
	if _, err := p.idx.ReadAt(b[:], p.offs64+8*j); err != nil {
		return 0, false
	}
	o := binary.BigEndian.Uint64(b[:])
	return int64(o), o < 1<<62
}

func (p *pack) close() {
	p.f.Close()
	p.idx.Close()
}

func (ps *packs) close() {
	for _, p := range ps.list {
		p.close()
	}
	ps.list, ps.cache = nil, nil
}

// find returns the pack that holds h and its offset there.
func (ps *packs) find(h plumbing.Hash) (*pack, int64, bool) {
	for _, p := range ps.list {
		if off, ok := p.find(h); ok {
			return p, off, true
		}
	}
	return nil, 0, false
}

// has reports whether a pack holds h.
func (ps *packs) has(h plumbing.Hash) bool {
	_, _, ok := ps.find(h)
	return ok
}

// read returns the type and content of object h. ok is false when no pack
// holds it or the pack cannot give it: go-git is then asked, and reports
// what is wrong.
func (ps *packs) read(h plumbing.Hash) (t plumbing.ObjectType, b []byte, ok bool) {
	p, off, found := ps.find(h)
	if !found {
		return 0, nil, false
	}
	t, b, err := ps.objectAt(p, off)
	if err != nil {
		return 0, nil, false
	}
	return t, b, true
}

// size returns the size of object h without reading its content (but for
// a delta's first bytes).
func (ps *packs) size(h plumbing.Hash) (int64, bool) {
	p, off, found := ps.find(h)
	if !found {
		return 0, false
	}
	hd, err := p.header(off)
	if err != nil {
		return 0, false
	}
	if hd.typ != plumbing.OFSDeltaObject && hd.typ != plumbing.REFDeltaObject {
		return hd.size, true
	}
	// A delta starts with the sizes of its base and its result.
	z, err := ps.inflater(p)
	if err != nil {
		return 0, false
	}
	var buf [20]byte
	n, _ := io.ReadFull(z, buf[:min(int64(len(buf)), hd.size)])
	_, k := binary.Uvarint(buf[:n])
	if k <= 0 {
		return 0, false
	}
	size, k2 := binary.Uvarint(buf[k:n])
	if k2 <= 0 || size > 1<<62 {
		return 0, false
	}
	return int64(size), true
}

// header is a packed object's header.
type header struct {
	typ  plumbing.ObjectType
	size int64 // of the inflated data
	base int64 // for a delta, the offset of its base in the same pack
	data int64 // the offset of the zlib data
}

// header reads the header of the object at off, leaving p.r at its
// zlib data.
func (p *pack) header(off int64) (header, error) {
	r := &p.r
	r.f, r.off, r.r, r.w, r.err = p.f, off, 0, 0, nil
	at := off
	next := func() (byte, bool) {
		c, err := r.ReadByte()
		at++
		return c, err == nil
	}
	c, ok := next()
	if !ok {
		return header{}, fmt.Errorf("read object header at %d: %w", off, r.err)
	}
	h := header{typ: plumbing.ObjectType((c >> 4) & 7), size: int64(c & 15)}
	for shift := 4; c&0x80 != 0; shift += 7 {
		if c, ok = next(); !ok || shift > 55 {
			return header{}, errors.New("bad object header")
		}
		h.size |= int64(c&0x7f) << shift
	}
	switch h.typ {
	case plumbing.CommitObject, plumbing.TreeObject, plumbing.BlobObject, plumbing.TagObject:
	case plumbing.OFSDeltaObject:
		c, ok := next()
		rel := int64(c & 0x7f)
		for ok && c&0x80 != 0 {
			if c, ok = next(); !ok || rel > 1<<55 {
				return header{}, errors.New("bad delta offset")
			}
			rel = (rel+1)<<7 | int64(c&0x7f)
		}
		if !ok || rel <= 0 || rel > off {
			return header{}, errors.New("bad delta offset")
		}
		h.base = off - rel
	case plumbing.REFDeltaObject:
		var base plumbing.Hash
		for i := range base {
			if base[i], ok = next(); !ok {
				return header{}, errors.New("short delta base")
			}
		}
		o, found := p.find(base)
		if !found {
			return header{}, errors.New("delta base not in the pack")
		}
		h.base = o
	default:
		return header{}, fmt.Errorf("unknown object type %d", h.typ)
	}
	h.data = at
	return h, nil
}

// inflater returns a reader of the zlib data header left p.r at.
func (ps *packs) inflater(p *pack) (io.Reader, error) {
	if ps.z != nil {
		if err := ps.z.(zlib.Resetter).Reset(&p.r, nil); err != nil {
			return nil, err
		}
		return ps.z, nil
	}
	z, err := zlib.NewReader(&p.r)
	if err != nil {
		return nil, err
	}
	ps.z = z
	return z, nil
}

// inflate returns the size bytes of the zlib data header left p.r at.
func (ps *packs) inflate(p *pack, size int64) ([]byte, error) {
	if size > 1<<40 {
		return nil, errors.New("object too large")
	}
	z, err := ps.inflater(p)
	if err != nil {
		return nil, err
	}
	// The size is the header's, which a damaged pack may overstate: the
	// buffer grows with what the data gives, past the first 8 MiB.
	buf := bytes.NewBuffer(make([]byte, 0, min(size, 8<<20)))
	if _, err := io.CopyN(buf, z, size); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// objectAt returns the type and content of the object at off, resolving
// deltas. The content is the caller's.
func (ps *packs) objectAt(p *pack, off int64) (plumbing.ObjectType, []byte, error) {
	type step struct {
		off   int64
		delta []byte
	}
	var chain []step
	var typ plumbing.ObjectType
	var data []byte
	cached := false
	for at := off; ; {
		if len(chain) > maxChain {
			return 0, nil, errors.New("delta chain too long")
		}
		if t, b, ok := ps.cache.get(p, at); ok {
			typ, data, cached = t, b, true
			break
		}
		h, err := p.header(at)
		if err != nil {
			return 0, nil, err
		}
		b, err := ps.inflate(p, h.size)
		if err != nil {
			return 0, nil, err
		}
		if h.typ != plumbing.OFSDeltaObject && h.typ != plumbing.REFDeltaObject {
			typ, data = h.typ, b
			if len(chain) > 0 {
				ps.cache.put(p, at, typ, data)
			}
			break
		}
		chain = append(chain, step{at, b})
		at = h.base
	}
	for i := len(chain) - 1; i >= 0; i-- {
		b, err := packfile.PatchDelta(data, chain[i].delta)
		if err != nil {
			return 0, nil, err
		}
		data = b
		if i > 0 {
			ps.cache.put(p, chain[i].off, typ, data)
		}
	}
	if len(chain) == 0 && cached {
		return typ, slices.Clone(data), nil
	}
	return typ, data, nil
}

// packReader reads a pack from an offset on, in blocks.
type packReader struct {
	f    *os.File
	off  int64
	buf  [4096]byte
	r, w int
	err  error
}

func (r *packReader) fill() {
	n, err := r.f.ReadAt(r.buf[:], r.off)
	r.off += int64(n)
	r.r, r.w = 0, n
	if n == 0 {
		r.err = err
		if err == nil {
			r.err = io.ErrUnexpectedEOF
		}
	}
}

func (r *packReader) Read(b []byte) (int, error) {
	if r.r == r.w {
		if r.err != nil {
			return 0, r.err
		}
		r.fill()
		if r.r == r.w {
			return 0, r.err
		}
	}
	n := copy(b, r.buf[r.r:r.w])
	r.r += n
	return n, nil
}

func (r *packReader) ReadByte() (byte, error) {
	if r.r == r.w {
		if r.err != nil {
			return 0, r.err
		}
		r.fill()
		if r.r == r.w {
			return 0, r.err
		}
	}
	c := r.buf[r.r]
	r.r++
	return c, nil
}

// baseCache keeps the objects read last as bases of deltas, by pack and
// offset, up to a number of bytes.
type baseCache struct {
	max, used int
	order     *list.List // of *baseEntry, most recent first
	byKey     map[baseKey]*list.Element
}

type baseKey struct {
	p   *pack
	off int64
}

type baseEntry struct {
	key  baseKey
	typ  plumbing.ObjectType
	data []byte
}

func newBaseCache(max int) *baseCache {
	return &baseCache{max: max, order: list.New(), byKey: map[baseKey]*list.Element{}}
}

func (c *baseCache) get(p *pack, off int64) (plumbing.ObjectType, []byte, bool) {
	e, ok := c.byKey[baseKey{p, off}]
	if !ok {
		return 0, nil, false
	}
	c.order.MoveToFront(e)
	be := e.Value.(*baseEntry)
	return be.typ, be.data, true
}

func (c *baseCache) put(p *pack, off int64, typ plumbing.ObjectType, data []byte) {
	k := baseKey{p, off}
	if _, ok := c.byKey[k]; ok || len(data) > c.max/4 {
		return
	}
	c.byKey[k] = c.order.PushFront(&baseEntry{k, typ, data})
	c.used += len(data)
	for c.used > c.max {
		e := c.order.Back()
		be := e.Value.(*baseEntry)
		c.order.Remove(e)
		delete(c.byKey, be.key)
		c.used -= len(be.data)
	}
}

// checkSum checks the SHA-1 at the end of the file name against what
// precedes it: a damaged file is left alone rather than trusted.
func checkSum(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if fi.Size() < sha1.Size {
		return errors.New("file too short")
	}
	sum := sha1.New()
	if _, err := io.Copy(sum, io.LimitReader(f, fi.Size()-sha1.Size)); err != nil {
		return err
	}
	var want [sha1.Size]byte
	if _, err := io.ReadFull(f, want[:]); err != nil {
		return err
	}
	if !bytes.Equal(sum.Sum(nil), want[:]) {
		return errors.New("checksum mismatch")
	}
	return nil
}
