package bundle

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/charter-dev/charter/internal/artifact/bundlefile"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/filestat"
	"github.com/charter-dev/charter/internal/par"
)

// OutError says why a directory cannot receive a bundle (or, for
// CheckOutput, what is written there).
type OutError struct {
	Dir    string
	Reason string
	// What is written: "the bundle" unless CheckOutput says otherwise.
	What string
}

func (e *OutError) Error() string {
	what := e.What
	if what == "" {
		what = "the bundle"
	}
	return fmt.Sprintf("cannot write %s to %s: %s", what, e.Dir, e.Reason)
}

// CheckOut refuses an output directory that would destroy something: a
// file, the config root or a directory that holds it, or an existing
// directory that is not a previous bundle (IsBundle).
func CheckOut(out, configRoot string) error {
	return CheckOutput(out, configRoot, "the bundle", "a charter bundle", IsBundle)
}

// CheckOutOver is CheckOut where known are the States of earlier writes:
// a folder one of them vouches for is a previous bundle (Ours) without
// IsBundle's look at every file.
func CheckOutOver(out, configRoot string, known []*State) error {
	return CheckOutput(out, configRoot, "the bundle", "a charter bundle", func(dir string) (bool, string) {
		if Ours(dir, known) {
			return true, ""
		}
		return IsBundle(dir)
	})
}

// CheckArchive refuses an archive name that would destroy something: a
// directory, or an existing file that is not an archive of a charter
// bundle (ReadArchive reads it, and it holds a manifest.json). A previous
// archive may be replaced; a source file or a note given by mistake may
// not.
func CheckArchive(name string) error {
	refuse := func(reason string) error { return &OutError{Dir: name, Reason: reason, What: "the archive"} }
	fi, err := os.Stat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return refuse(err.Error())
	case fi.IsDir():
		return refuse("it is a directory; give a file name, such as bundle.tar.gz")
	case !fi.Mode().IsRegular():
		return refuse("it is not a regular file; choose another name")
	}
	f, err := os.Open(name)
	if err != nil {
		return refuse(err.Error())
	}
	defer f.Close()
	t, err := ReadArchive(f)
	if err == nil {
		if _, ok := t["manifest.json"]; !ok {
			err = errors.New("it has no manifest.json")
		}
	}
	if err != nil {
		return refuse(fmt.Sprintf("it exists and is not a charter bundle archive (%v); remove it or choose another name", err))
	}
	return nil
}

// Generated reports whether every file under dir is one a generator
// wrote, as ours judges it by its slash-separated path and its first bytes
// (up to 512); a link or any other kind of file is not. A folder a
// generator wrote, with a file of someone else's added (a note, a CNAME),
// is not: replacing it would move that file aside and the next write
// would delete it. why names the first file that is not ours, as "PATH is
// not " + kind.
func Generated(dir, kind string, ours func(rel string, head []byte) bool) (ok bool, why string) {
	head := make([]byte, 512)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if !d.Type().IsRegular() {
			why = rel + " is not " + kind
			return fs.SkipAll
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		n, _ := io.ReadFull(f, head)
		f.Close()
		if !ours(rel, head[:n]) {
			why = rel + " is not " + kind
			return fs.SkipAll
		}
		return nil
	})
	if err != nil {
		return false, err.Error()
	}
	return why == "", why
}

// maxManifest bounds the manifest.json IsBundle reads: one of 10,000
// agents is about 4 MB.
const maxManifest = 64 << 20

// IsBundle reports whether dir holds a bundle charter wrote, recognised by
// what only a bundle has: a manifest.json that ParseManifest accepts
// (charter's fields, a schema version it reads) and that lists exactly the
// regular files dir holds, each of its size. A folder that merely holds a
// file named manifest.json (a web app's, a package's) is none; why says
// what is not a bundle's.
func IsBundle(dir string) (ok bool, why string) {
	fi, err := os.Lstat(filepath.Join(dir, "manifest.json"))
	switch {
	case err != nil:
		return false, "it has no manifest.json"
	case !fi.Mode().IsRegular() || fi.Size() > maxManifest:
		return false, "its manifest.json is not a regular file of at most 64 MiB"
	}
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return false, err.Error()
	}
	m, err := bundlefile.ParseManifest(b)
	if err != nil {
		return false, "manifest.json is not charter's: " + strings.TrimPrefix(err.Error(), "manifest.json: ")
	}
	listed := map[string]int{"manifest.json": len(b)}
	if fi, err := os.Lstat(filepath.Join(dir, bundlefile.SignatureFile)); err == nil && fi.Mode().IsRegular() {
		listed[bundlefile.SignatureFile] = int(fi.Size())
	}
	for _, f := range m.Files {
		listed[f.Path] = f.Size
	}
	why = ""
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			return nil
		}
		size, ok := listed[rel]
		fi, ierr := d.Info()
		switch {
		case !ok:
			why = rel + " is not in its manifest.json"
		case !d.Type().IsRegular() || ierr != nil:
			why = rel + " is not a regular file"
		case fi.Size() != int64(size):
			why = fmt.Sprintf("%s has %d bytes, its manifest.json says %d", rel, fi.Size(), size)
		default:
			delete(listed, rel)
			return nil
		}
		return fs.SkipAll
	})
	if err != nil {
		return false, err.Error()
	}
	if why != "" {
		return false, why
	}
	for _, p := range model.Sorted(listed) {
		return false, p + ", which its manifest.json lists, is missing"
	}
	return true, ""
}

// CheckOutput is CheckOut for any tree WriteDir writes: what names it in
// messages ("the bundle"), kind names a previous one ("a charter
// bundle"), and ours reports whether a non-empty directory holds one,
// which may be replaced, and if not, why.
func CheckOutput(out, configRoot, what, kind string, ours func(dir string) (bool, string)) error {
	refuse := func(reason string) error { return &OutError{Dir: out, Reason: reason, What: what} }
	absOut, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	absRoot, err := filepath.Abs(configRoot)
	if err != nil {
		return err
	}
	if r, err := filepath.EvalSymlinks(absRoot); err == nil {
		absRoot = r
	}
	if r, err := filepath.EvalSymlinks(absOut); err == nil {
		absOut = r
	}
	if absOut == absRoot || strings.HasPrefix(absRoot+string(filepath.Separator), absOut+string(filepath.Separator)) {
		return refuse("it is (or contains) the config root, which the write would replace; choose a directory of its own, such as dist")
	}
	fi, err := os.Stat(out)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return refuse(err.Error())
	case !fi.IsDir():
		return refuse("it is a file, not a directory; remove it or choose another directory")
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		return refuse(err.Error())
	}
	if len(entries) == 0 {
		return nil
	}
	ok, why := ours(out)
	if ok {
		return nil
	}
	return refuse(fmt.Sprintf("it is not empty and is not %s (%s), so it may not be replaced; choose an empty or new directory", kind, why))
}

// errKilled is what writeDir returns when its alive function stops it.
var errKilled = errors.New("build killed (test)")

// opened, when tests set it, is called with the name of every file the
// writer opens to read: a file a State vouches for is never opened.
var opened func(name string)

// WriteDir writes t into dir atomically: into a temporary sibling first,
// which then takes dir's place in one rename (an exchange when dir exists),
// so readers see the old bundle or the new one, and a failed or killed
// build leaves the old one untouched.
//
// The bundle dir replaces is kept beside it as .<dir>.prev, and the next
// WriteDir starts from it: it rewrites only the files whose bytes changed
// and removes what t does not hold. On many file systems creating files
// and folders costs far more than reading them, so a rebuild costs little
// more than what changed. .<dir>.prev holds a .gitignore that ignores it;
// it is safe to delete.
func WriteDir(dir string, t bundlefile.Tree) error { return writeDir(dir, t, nil) }

// writeDir is WriteDir. alive, when tests set it, runs after each file is
// written; when it returns false the process "dies" there: writeDir stops
// at once, cleaning nothing up, as a killed process would.
func writeDir(dir string, t bundlefile.Tree, alive func(n int) bool) error {
	_, err := writeTree(dir, nil, t, nil, false, alive)
	return err
}

// WriteDirState is WriteDir that also returns the State of the bundle now
// in dir, which a later WriteOver needs, and uses known as WriteOver does:
// a file of .<dir>.prev that a State vouches for, and whose sha256 is that
// of t's bytes, is not read.
func WriteDirState(dir string, t bundlefile.Tree, known []*State) (*State, error) {
	return writeTree(dir, ManifestListing(t), t, known, true, nil)
}

// WriteOver writes into dir, atomically as WriteDir does, the bundle whose
// files are listed by files (every path, its sha256 and size: the
// manifest's File entries plus manifest.json and manifest.jws themselves)
// and whose bytes are data[p], or, for a path data lacks, the bytes dir/p
// holds now (the bundle being replaced, which must hold exactly them: the
// sha256 is checked; when it does not, WriteOver returns an error matching
// ErrStale and writes nothing in dir, so the caller builds in full). data's
// bytes must match their listing too (an error otherwise).
//
// known are States earlier writes returned; the one whose folder is the
// claimed .<dir>.prev (the same device and inode) spares reading and
// rewriting every file it lists with the same sha256 and an unchanged
// Lstat (inode, size, mode, owner, mtime and ctime), and reading every
// folder whose Lstat is unchanged. Files and folders changed within the
// racy window (100 ms, or 2 s where timestamps are whole seconds) before
// that State was taken are read all the same. Without a matching State
// every file is compared, as WriteDir does: never wrong, only slower. It
// returns the State of the bundle now in dir. A write that fails puts a
// claimed .<dir>.prev back, so the full build after ErrStale starts from
// it.
func WriteOver(dir string, files []bundlefile.File, data bundlefile.Tree, known []*State) (*State, error) {
	return writeTree(dir, files, data, known, false, nil)
}

// writeTree is the one writer behind WriteDir, WriteDirState and
// WriteOver. files is nil for WriteDir: the paths are data's, nothing is
// hashed and no State is returned; verified says data's sha256 are known
// to be files'. alive is writeDir's.
func writeTree(dir string, files []bundlefile.File, data bundlefile.Tree, known []*State, verified bool, alive func(n int) bool) (*State, error) {
	dir = filepath.Clean(dir)
	w, err := newWriter(dir, files, data)
	if err != nil {
		return nil, err
	}
	w.alive, w.verified = alive, verified
	parent, base := filepath.Dir(dir), filepath.Base(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	// Builds into one place take turns: each sees only what finished
	// builds and killed ones left.
	defer lockDir(parent)()
	removeStale(parent, base)
	tmp, err := os.MkdirTemp(parent, "."+base+".tmp-")
	if err != nil {
		return nil, err
	}
	prev := filepath.Join(parent, "."+base+".prev")
	// Claiming the previous bundle is one rename, so two builds never
	// share it; only a real folder of ours is claimed.
	w.fresh = true // tmp is empty: nothing to compare or remove
	if fi, err := os.Lstat(prev); err == nil && fi.IsDir() && ours(fi) && isPrev(prev) {
		w.fresh = claim(prev, tmp) != nil
	}
	if !w.fresh && w.files != nil {
		// The claim is a rename: the folder keeps its device and inode.
		if fi, err := os.Lstat(tmp); err == nil {
			w.prev = stateFor(known, fi)
		}
	}

	ok := false
	defer func() {
		if ok {
			return
		}
		// A claimed .prev goes back, for the next build (a full one after
		// ErrStale) to start from: every file and folder this write
		// changed has a new stat, so no State vouches for it any more.
		if w.fresh || keepPrev(tmp, prev) != nil {
			removeTree(tmp)
		}
	}()
	w.root = tmp
	if err := w.write(); err != nil {
		if errors.Is(err, errKilled) {
			ok = true // a killed process leaves its temporary directory
		}
		return nil, err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return nil, err
	}
	var state *State
	if w.files != nil {
		// Renames and exchanges keep every stat below the top folder.
		state = w.state()
	}
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		err := os.Rename(tmp, dir)
		if err == nil {
			ok = true
			return state, nil
		}
		if _, serr := os.Lstat(dir); serr != nil {
			return nil, err
		}
		// Another build made dir meanwhile: exchange with it, below.
	}
	if err := exchange(tmp, dir); err != nil {
		// No atomic exchange (another OS or file system): two renames.
		old := tmp + ".old"
		if err := os.Rename(dir, old); err != nil {
			return nil, err
		}
		if err := os.Rename(tmp, dir); err != nil {
			os.Rename(old, dir)
			return nil, err
		}
		tmp = old
	}
	ok = true
	// tmp now holds what dir was: the old bundle, kept for the next build
	// if it is a real folder of ours (dir may have been a link).
	if fi, err := os.Lstat(tmp); err != nil || !fi.IsDir() || !ours(fi) {
		return state, removeTree(tmp)
	}
	if keepPrev(tmp, prev) != nil {
		return state, removeTree(tmp)
	}
	return state, nil
}

// keepPrev makes the folder tmp the previous tree, prev.
func keepPrev(tmp, prev string) error {
	if err := os.WriteFile(filepath.Join(tmp, ".gitignore"), []byte(prevIgnore), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, prev)
}

const prevIgnore = "# charter's previous bundle, kept to make the next build fast; safe to delete.\n*\n"

// isPrev reports whether dir is a previous tree WriteDir kept: it holds
// the .gitignore WriteDir writes there. Another folder of that name (a
// user's) is never taken, since the next write would empty it.
func isPrev(dir string) bool {
	fi, err := os.Lstat(filepath.Join(dir, ".gitignore"))
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != int64(len(prevIgnore)) {
		return false
	}
	b, err := os.ReadFile(filepath.Join(dir, ".gitignore"))
	return err == nil && string(b) == prevIgnore
}

// writer makes a tree under root hold exactly one bundle.
type writer struct {
	root  string                     // the tree being written
	from  string                     // the folder being replaced: bytes of paths data lacks
	files map[string]bundlefile.File // the listing; nil for WriteDir
	data  bundlefile.Tree
	fresh bool // root is empty: nothing in it is compared or removed
	// data's bytes are known to have their listed sha256
	verified bool
	prev     *State // what root held, as a State vouches, or nil
	alive    func(n int) bool

	byDir  map[string][]string // folder: its files, in order
	levels [][]string          // folders by depth
	gone   map[string][]string // with prev: what each folder loses
	chmod  bool                // the umask or an ACL takes bits from 0644/0755
	// clean holds the stat of each folder that prev vouched for and that
	// nothing has changed since (a State of a folder that did change
	// would only fail to match it, never trust it wrongly)
	clean map[string]Stat

	written atomic.Int64
	mu      sync.Mutex
	stats   map[string]FileState // with files: what each file is now
}

func newWriter(dir string, files []bundlefile.File, data bundlefile.Tree) (*writer, error) {
	w := &writer{from: dir, data: data, clean: map[string]Stat{}}
	var paths []string
	if files == nil {
		paths = data.Paths()
	} else {
		w.files = make(map[string]bundlefile.File, len(files))
		w.stats = make(map[string]FileState, len(files))
		paths = make([]string, 0, len(files))
		for _, f := range files {
			if _, dup := w.files[f.Path]; dup {
				return nil, fmt.Errorf("%s is listed twice", f.Path)
			}
			w.files[f.Path] = f
			paths = append(paths, f.Path)
		}
		for p := range data {
			if _, ok := w.files[p]; !ok {
				return nil, fmt.Errorf("%s is not listed among the bundle's files", p)
			}
		}
	}
	w.byDir = make(map[string][]string, len(paths)/2)
	for _, p := range paths {
		if p == "." || !fs.ValidPath(p) {
			return nil, fmt.Errorf("%q is not a path inside the bundle", p)
		}
		d := path.Dir(p)
		// A folder first seen: it and its parents not seen yet, each at
		// its depth, so that each level's parents exist.
		for q := d; ; q = path.Dir(q) {
			if _, ok := w.byDir[q]; ok {
				break
			}
			if w.isFile(q) {
				return nil, fmt.Errorf("%s is both a file and a folder of the bundle", q)
			}
			w.byDir[q] = nil
			depth := 0
			if q != "." {
				depth = strings.Count(q, "/") + 1
			}
			for len(w.levels) <= depth {
				w.levels = append(w.levels, nil)
			}
			w.levels[depth] = append(w.levels[depth], q)
			if q == "." {
				break
			}
		}
		w.byDir[d] = append(w.byDir[d], p)
	}
	return w, nil
}

func (w *writer) isFile(p string) bool {
	if w.files != nil {
		_, ok := w.files[p]
		return ok
	}
	_, ok := w.data[p]
	return ok
}

// writeFiles makes the tree under dir hold exactly t: it writes the files
// that are missing or differ, and removes everything else. dir may be
// empty (fresh: then nothing in it is compared or removed, which halves
// the system calls of a first build) or hold a previous bundle.
func writeFiles(dir string, t bundlefile.Tree, fresh bool, alive func(n int) bool) error {
	w, err := newWriter(dir, nil, t)
	if err != nil {
		return err
	}
	w.root, w.fresh, w.alive = dir, fresh, alive
	return w.write()
}

// write makes w.root hold the bundle. Folders are done one per task on a
// few goroutines (a bundle is thousands of small files in thousands of
// folders, and the file system handles them in parallel).
func (w *writer) write() error {
	if w.prev != nil {
		w.gone = w.prev.gone(w.files, w.byDir)
	}
	// Read once a tree: charter never changes its umask, tests do.
	w.chmod = !umaskKeeps(w.root, 0o755|0o644)
	var (
		mu    sync.Mutex
		first error
	)
	syncDir := func(d string) {
		var err error
		if w.fresh {
			err = makeDir(w.root, d, w.chmod)
		} else {
			err = w.updateDir(d)
		}
		for _, p := range w.byDir[d] {
			if err != nil {
				break
			}
			err = w.file(p)
			if err == nil && w.alive != nil && !w.alive(int(w.written.Add(1))) {
				err = errKilled
			}
		}
		if err != nil {
			mu.Lock()
			if first == nil {
				first = err
			}
			mu.Unlock()
		}
	}
	for _, level := range w.levels {
		parallel(level, syncDir)
		if first != nil {
			return first
		}
	}
	return nil
}

// file makes root/p a file of mode 0644 holding p's bytes.
func (w *writer) file(p string) error {
	name := filepath.Join(w.root, filepath.FromSlash(p))
	want, listed := w.files[p]
	b, has := w.data[p]
	if listed && has && !w.verified {
		if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != want.SHA256 || len(b) != want.Size {
			return fmt.Errorf("the bytes given for %s are not those its listing says (sha256 %s, %d bytes)", p, want.SHA256, want.Size)
		}
	}
	if w.fresh {
		if !has {
			var err error
			if b, err = w.fromDir(p, want); err != nil {
				return err
			}
		}
		fi, err := createFile(name, b, w.chmod, listed)
		if err == nil {
			w.record(p, fi)
		}
		return err
	}
	if w.prev != nil {
		if rec, ok := w.prev.Files[p]; ok && rec.SHA256 == want.SHA256 && rec.Size == int64(want.Size) {
			if fi, err := os.Lstat(name); err == nil && w.prev.trusts(rec.Stat, fi) {
				w.record(p, fi)
				return nil
			}
		}
	}
	if !has {
		if fi, ok := holds(name, want); ok {
			w.record(p, fi)
			return nil
		}
		var err error
		if b, err = w.fromDir(p, want); err != nil {
			return err
		}
	} else if fi, ok := sameFile(name, b); ok {
		w.record(p, fi)
		return nil
	}
	w.changed(path.Dir(p))
	if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	fi, err := createFile(name, b, w.chmod, listed)
	if err == nil {
		w.record(p, fi)
	}
	return err
}

// fromDir reads the bytes of p from the bundle being replaced, which must
// hold exactly those listed.
func (w *writer) fromDir(p string, want bundlefile.File) ([]byte, error) {
	name := filepath.Join(w.from, filepath.FromSlash(p))
	f, fi, ok := openOwn(name)
	if !ok {
		return nil, staleError(w.from, p, "is missing or is not a file of mode 0644 this user wrote")
	}
	if opened != nil {
		opened(name)
	}
	defer f.Close()
	b, ok := readSize(f, fi, int64(want.Size))
	if !ok {
		return nil, staleError(w.from, p, fmt.Sprintf("does not have the %d bytes listed", want.Size))
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != want.SHA256 {
		return nil, staleError(w.from, p, "has other bytes than those listed (sha256 "+want.SHA256+")")
	}
	return b, nil
}

// changed says folder d has changed since updateDir saw it.
func (w *writer) changed(d string) {
	w.mu.Lock()
	delete(w.clean, d)
	w.mu.Unlock()
}

// record keeps what root/p is now, for the State.
func (w *writer) record(p string, fi fs.FileInfo) {
	if w.files == nil {
		return
	}
	st, _ := filestat.Of(fi)
	f := w.files[p]
	w.mu.Lock()
	w.stats[p] = FileState{SHA256: f.SHA256, Size: int64(f.Size), Stat: st}
	w.mu.Unlock()
}

// state returns the State of the tree written: the files' stats kept as
// they were written or found, every folder's taken now.
func (w *writer) state() *State {
	s := &State{Files: w.stats, Dirs: make(map[string]Stat, len(w.byDir))}
	fi, err := os.Lstat(w.root)
	if err != nil {
		return s
	}
	st, ok := filestat.Of(fi)
	if !ok {
		return s
	}
	s.Dev, _ = filestat.DevOf(fi)
	s.Ino = st.Ino
	var dirs []string
	for _, level := range w.levels {
		for _, d := range level {
			if st, ok := w.clean[d]; ok && d != "." {
				s.Dirs[d] = st
			} else {
				dirs = append(dirs, d)
			}
		}
	}
	var mu sync.Mutex
	parallel(dirs, func(d string) {
		fi, err := os.Lstat(filepath.Join(w.root, filepath.FromSlash(d)))
		if err != nil {
			return // a folder missing from Dirs is never trusted
		}
		st, _ := filestat.Of(fi)
		mu.Lock()
		s.Dirs[d] = st
		mu.Unlock()
	})
	// The file system's clock may be behind ours (a file server's): the
	// top folder's ctime, set by the chmod just done, is its now.
	s.At = min(time.Now().UnixNano(), st.Ctime)
	s.Coarse = true
	for _, f := range s.Files {
		if f.Stat.Mtime%int64(time.Second) != 0 {
			s.Coarse = false
			break
		}
	}
	s.Stats = true
	return s
}

// makeDir makes dir/d a folder of mode 0755 in a fresh tree, where dir
// itself exists; chmod is false when the umask leaves 0755 as it is.
func makeDir(dir, d string, chmod bool) error {
	if d == "." {
		return nil
	}
	name := filepath.Join(dir, filepath.FromSlash(d))
	if err := os.Mkdir(name, 0o755); err != nil {
		return err
	}
	if !chmod {
		return nil
	}
	return os.Chmod(name, 0o755) // whatever the umask: the same bundle every time
}

// updateDir makes root/d a folder (not a link to one) and removes every
// entry in it that the bundle does not have: neither a file nor a folder
// of it. A folder whose Lstat the previous State vouches for holds what
// that State recorded, so it is not read.
func (w *writer) updateDir(d string) error {
	name := filepath.Join(w.root, filepath.FromSlash(d))
	fi, err := os.Lstat(name)
	if err == nil && (!fi.IsDir() || !ours(fi)) {
		if err := os.RemoveAll(name); err != nil { // a link: removes the link only
			return err
		}
	}
	if err != nil || !fi.IsDir() || !ours(fi) {
		w.changed(path.Dir(d))
		if err := os.Mkdir(name, 0o755); err != nil {
			return err
		}
		return os.Chmod(name, 0o755) // whatever the umask: the same bundle every time
	}
	if w.prev != nil && d != "." {
		if rec, ok := w.prev.Dirs[d]; ok && w.prev.trusts(rec, fi) {
			for _, e := range w.gone[d] {
				if err := os.RemoveAll(filepath.Join(name, e)); err != nil {
					return err
				}
			}
			if len(w.gone[d]) == 0 {
				w.mu.Lock()
				w.clean[d] = rec
				w.mu.Unlock()
			}
			return nil
		}
	}
	if fi.Mode().Perm() != 0o755 {
		if err := os.Chmod(name, 0o755); err != nil {
			return err
		}
	}
	entries, err := os.ReadDir(name)
	if err != nil {
		return err
	}
	for _, e := range entries {
		p := path.Join(d, e.Name())
		_, isDir := w.byDir[p]
		if w.isFile(p) && e.Type().IsRegular() || isDir && e.IsDir() {
			continue
		}
		if err := os.RemoveAll(filepath.Join(name, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// createFile makes name, which does not exist, a file of mode 0644
// holding data; chmod is false when the umask leaves 0644 as it is. With
// stat, it returns the file's stat once written.
func createFile(name string, data []byte, chmod, stat bool) (fs.FileInfo, error) {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return nil, err
	}
	if chmod {
		if err := f.Chmod(0o644); err != nil { // whatever the umask
			f.Close()
			return nil, err
		}
	}
	var fi fs.FileInfo
	if stat {
		if fi, err = f.Stat(); err != nil {
			f.Close()
			return nil, err
		}
	}
	return fi, f.Close()
}

// sameFile reports whether name is a regular file (not a link) that the
// writer could have made (owned by this process's user, mode 0644) and
// holds exactly data, and returns its stat.
func sameFile(name string, data []byte) (fs.FileInfo, bool) {
	b, fi, ok := readOwn(name, int64(len(data)))
	return fi, ok && bytes.Equal(b, data)
}

// readOwn reads name, a file the writer could have made, when it has
// size bytes.
func readOwn(name string, size int64) ([]byte, fs.FileInfo, bool) {
	f, fi, ok := openOwn(name)
	if !ok {
		return nil, nil, false
	}
	if opened != nil {
		opened(name)
	}
	defer f.Close()
	b, ok := readSize(f, fi, size)
	return b, fi, ok
}

// holds reports whether name is a file sameFile would accept holding the
// bytes want lists, and returns its stat.
func holds(name string, want bundlefile.File) (fs.FileInfo, bool) {
	b, fi, ok := readOwn(name, int64(want.Size))
	if !ok {
		return nil, false
	}
	sum := sha256.Sum256(b)
	return fi, hex.EncodeToString(sum[:]) == want.SHA256
}

// readSize reads f, whose stat is fi, whole if it has exactly size bytes.
func readSize(f io.Reader, fi fs.FileInfo, size int64) ([]byte, bool) {
	if fi.Size() != size {
		return nil, false
	}
	buf := make([]byte, size+1) // one more, to see the end
	n, err := io.ReadFull(f, buf)
	return buf[:n], (err == io.ErrUnexpectedEOF || err == io.EOF) && int64(n) == size
}

// removeTree removes dir and everything under it, its top folders' trees
// in parallel.
func removeTree(dir string) error {
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		return os.RemoveAll(dir) // a link: removes the link only
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return os.RemoveAll(dir)
	}
	var sub []string
	for _, e := range entries {
		if e.IsDir() { // from Lstat: not a link
			if inner, err := os.ReadDir(filepath.Join(dir, e.Name())); err == nil {
				for _, ie := range inner {
					sub = append(sub, filepath.Join(e.Name(), ie.Name()))
				}
			}
		}
	}
	parallel(sub, func(name string) { os.RemoveAll(filepath.Join(dir, name)) })
	return os.RemoveAll(dir)
}

// parallel calls f on every item from eight goroutines: file system
// calls wait more than they compute.
func parallel(items []string, f func(string)) {
	par.Each(len(items), 8, func(i int) { f(items[i]) })
}

// removeStale deletes temporary directories that a killed build left.
func removeStale(parent, base string) {
	matches, _ := filepath.Glob(filepath.Join(parent, "."+base+".tmp-*"))
	for _, m := range matches {
		removeTree(m)
	}
}

// Epoch returns the archive timestamp: SOURCE_DATE_EPOCH when set, else the
// source commit's time, else the Unix epoch.
func Epoch(src *bundlefile.Source) (time.Time, error) {
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		sec, err := strconv.ParseInt(s, 10, 64)
		// The specification allows only ASCII digits: no sign, so no time
		// before 1970, which tar headers and many tools mishandle.
		if err == nil && strings.Trim(s, "0123456789") != "" {
			err = errors.New("not digits only")
		}
		if err != nil {
			return time.Time{}, fmt.Errorf("SOURCE_DATE_EPOCH=%q is not a whole number of seconds since 1970 (see reproducible-builds.org)", s)
		}
		return time.Unix(sec, 0).UTC(), nil
	}
	return SourceEpoch(src), nil
}

// SourceEpoch is the time of the commit src, to the second, or 1970
// without one: an archive's timestamps that depend on the commit alone,
// as a published bundle's must.
func SourceEpoch(src *bundlefile.Source) time.Time {
	if src != nil && !src.Time.IsZero() {
		return src.Time.UTC().Truncate(time.Second)
	}
	return time.Unix(0, 0).UTC()
}

// WriteArchive writes t as a reproducible tar.gz: entries sorted, folders
// before their files, mode 0755/0644, owner 0:0 with no names, every mtime
// set to mtime, and a gzip header without name or time.
func WriteArchive(w io.Writer, t bundlefile.Tree, mtime time.Time) error {
	gz, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(gz)
	dirs := map[string]bool{}
	hdr := func(name string, mode int64, typ byte, size int64) *tar.Header {
		return &tar.Header{Name: name, Mode: mode, Typeflag: typ, Size: size, ModTime: mtime}
	}
	for _, p := range t.Paths() {
		var parents []string
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			parents = append([]string{d}, parents...)
		}
		for _, d := range parents {
			if !dirs[d] {
				dirs[d] = true
				if err := tw.WriteHeader(hdr(d+"/", 0o755, tar.TypeDir, 0)); err != nil {
					return err
				}
			}
		}
		if err := tw.WriteHeader(hdr(p, 0o644, tar.TypeReg, int64(len(t[p])))); err != nil {
			return err
		}
		if _, err := tw.Write(t[p]); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

// Archive returns t as the reproducible tar.gz that build --archive
// writes, every timestamp mtime (Epoch or SourceEpoch): the same tree and
// time give the same bytes.
func Archive(t bundlefile.Tree, mtime time.Time) ([]byte, error) {
	var buf bytes.Buffer
	if err := WriteArchive(&buf, t, mtime); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
