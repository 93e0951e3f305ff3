package bundle

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/charter-dev/charter/internal/artifact/bundlefile"
	"github.com/charter-dev/charter/internal/filestat"
	"github.com/charter-dev/charter/internal/par"
)

// ErrStale is what WriteOver returns when the output folder does not hold
// the bytes the listing says for a path the caller did not give: the
// bundle there is not the one the build started from (someone changed or
// removed a file of it). Nothing is written in the folder; build in full.
var ErrStale = errors.New("the output folder does not hold the bundle this build updates")

// State is what a write left in a bundle folder: the folder's identity
// (device and inode, which renames keep), every file's sha256, size and
// the stat it had once written, every folder's stat, and when the stats
// were taken. It is gob-encodable (exported fields only). A later write
// trusts a file whose stat is unchanged to hold the same bytes, as Git's
// index does: a file's contents cannot change without its ctime changing,
// and ctime cannot be set by a user.
type State struct {
	// Stats is false where the system gives no stats this package reads
	// (Stat is zero): such a State spares nothing, and every file is
	// compared.
	Stats bool
	// Dev and Ino name the bundle's top folder.
	Dev, Ino uint64
	// At is when the stats were taken, in nanoseconds since 1970, by the
	// file system's clock (the top folder's ctime once written) or ours,
	// whichever is earlier: a file or folder whose recorded mtime or ctime
	// is within the racy window before it is verified by reading, since a
	// change in the same tick of the file system's clock may leave its
	// stat as it was.
	At int64
	// Coarse says the file system keeps whole seconds (every mtime
	// recorded is one): the racy window is then 2 s, else 100 ms.
	Coarse bool
	// Files holds every file of the bundle, by slash-separated path.
	Files map[string]FileState
	// Dirs holds every folder's stat, by slash-separated path ("." for the
	// top).
	Dirs map[string]Stat
}

// FileState is one file of a State.
type FileState struct {
	SHA256 string // lowercase hex, as the manifest lists it
	Size   int64
	Stat   Stat
}

// Stat is what a later write compares of a file or folder's Lstat
// (package filestat).
type Stat = filestat.Stat

// trusts reports whether s, the State of the folder being written over,
// vouches for the entry whose Lstat is fi and whose stat s recorded as rec.
func (s *State) trusts(rec Stat, fi fs.FileInfo) bool {
	return filestat.Clean(rec, s.At, s.Coarse, fi) && int(rec.Uid) == euid()
}

// euid is the process's effective user id, asked once: a system call.
var euid = sync.OnceValue(os.Geteuid)

// stateFor returns the State of known that names the folder whose Lstat
// is fi, or nil: none does (another folder, a State of a system without
// stats, a zero State decoded from garbage).
func stateFor(known []*State, fi fs.FileInfo) *State {
	st, ok := filestat.Of(fi)
	if !ok {
		return nil
	}
	dev, _ := filestat.DevOf(fi)
	for _, s := range known {
		if s != nil && s.Stats && s.Ino != 0 && s.Dev == dev && s.Ino == st.Ino {
			return s
		}
	}
	return nil
}

// gone returns, by folder, the names of the entries s recorded that the
// bundle being written (its files and folders) does not have: what a
// folder whose stat s vouches for holds and must lose. Paths that are not
// valid (fs.ValidPath) are left out: a State is read from disk.
func (s *State) gone(files map[string]bundlefile.File, byDir map[string][]string) map[string][]string {
	out := map[string][]string{}
	add := func(p string) {
		if p != "." && fs.ValidPath(p) {
			out[path.Dir(p)] = append(out[path.Dir(p)], path.Base(p))
		}
	}
	for p := range s.Files {
		if _, ok := files[p]; !ok {
			add(p)
		}
	}
	for p := range s.Dirs {
		if _, ok := byDir[p]; !ok {
			add(p)
		}
	}
	return out
}

// Listing returns t's listing for WriteOver: every path with the sha256
// and size of its bytes, in t's order.
func Listing(t bundlefile.Tree) []bundlefile.File {
	paths := t.Paths()
	files := make([]bundlefile.File, len(paths))
	par.Each(len(paths), 8, func(i int) {
		sum := sha256.Sum256(t[paths[i]])
		files[i] = bundlefile.File{Path: paths[i], SHA256: hex.EncodeToString(sum[:]), Size: len(t[paths[i]])}
	})
	return files
}

// ManifestListing is t's listing for the writer when t is a bundle Build
// made: its manifest's entries (the sha256 Build computed), with
// manifest.json and its signature, sorted by path; nothing else is hashed
// again (268 MB at 10,000 agents). When the manifest does not list
// exactly t's other files, each of its size, it is Listing(t).
func ManifestListing(t bundlefile.Tree) []bundlefile.File {
	m, err := bundlefile.ParseManifest(t["manifest.json"])
	if err != nil {
		return Listing(t)
	}
	files := slices.Clone(m.Files)
	for _, p := range []string{"manifest.json", bundlefile.SignatureFile} {
		if b, ok := t[p]; ok {
			files = append(files, FileOf(p, b))
		}
	}
	if len(files) != len(t) {
		return Listing(t)
	}
	for _, f := range files {
		if b, ok := t[f.Path]; !ok || len(b) != f.Size {
			return Listing(t)
		}
	}
	slices.SortFunc(files, func(a, b bundlefile.File) int { return strings.Compare(a.Path, b.Path) })
	return files
}

// staleError says which file of the output folder is not what the listing
// says.
func staleError(dir, p, why string) error {
	return fmt.Errorf("%w: %s %s", ErrStale, filepath.Join(dir, filepath.FromSlash(p)), why)
}

// Ours reports whether dir is the folder the write that left one of known
// made, with no entry added to or removed from any of its folders since:
// a previous bundle, which a build may replace, known from a Lstat of
// each folder rather than a read of the manifest and a look at every
// file (IsBundle, which CheckOutOver falls back on). A file changed in
// place is no reason to keep the folder: the build writes it again. A
// folder whose stat the State cannot vouch for (racily clean, or the top
// one, whose ctime the exchange changed) has its entries listed and
// compared with those the State recorded.
func Ours(dir string, known []*State) bool {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return false
	}
	s := stateFor(known, fi)
	if s == nil || len(s.Dirs) == 0 {
		return false
	}
	dirs := make([]string, 0, len(s.Dirs))
	for d := range s.Dirs {
		dirs = append(dirs, d)
	}
	var (
		mu     sync.Mutex
		bad    bool
		unsure []string
	)
	parallel(dirs, func(d string) {
		fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(d)))
		mu.Lock()
		defer mu.Unlock()
		switch {
		case !fs.ValidPath(d) || err != nil || !fi.IsDir():
			bad = true
		case d == "." || !s.trusts(s.Dirs[d], fi):
			unsure = append(unsure, d)
		}
	})
	if bad {
		return false
	}
	if len(unsure) == 0 {
		return true
	}
	recorded := map[string]map[string]bool{} // folder: its entries' names, true for a folder
	add := func(p string, isDir bool) {
		d := path.Dir(p)
		if recorded[d] == nil {
			recorded[d] = map[string]bool{}
		}
		recorded[d][path.Base(p)] = isDir
	}
	for p := range s.Files {
		add(p, false)
	}
	for p := range s.Dirs {
		if p != "." {
			add(p, true)
		}
	}
	for _, d := range unsure {
		entries, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(d)))
		if err != nil || len(entries) != len(recorded[d]) {
			return false
		}
		for _, e := range entries {
			isDir, ok := recorded[d][e.Name()]
			if !ok || isDir != e.IsDir() || !isDir && !e.Type().IsRegular() {
				return false
			}
		}
	}
	return true
}
