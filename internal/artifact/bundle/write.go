package bundle

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
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

	"github.com/charter-dev/charter/internal/config/model"
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
	m, err := ParseManifest(b)
	if err != nil {
		return false, "manifest.json is not charter's: " + strings.TrimPrefix(err.Error(), "manifest.json: ")
	}
	listed := map[string]int{"manifest.json": len(b)}
	if fi, err := os.Lstat(filepath.Join(dir, SignatureFile)); err == nil && fi.Mode().IsRegular() {
		listed[SignatureFile] = int(fi.Size())
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
func WriteDir(dir string, t Tree) error { return writeDir(dir, t, nil) }

// writeDir is WriteDir. alive, when tests set it, runs after each file is
// written; when it returns false the process "dies" there: writeDir stops
// at once, cleaning nothing up, as a killed process would.
func writeDir(dir string, t Tree, alive func(n int) bool) error {
	dir = filepath.Clean(dir)
	parent, base := filepath.Dir(dir), filepath.Base(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	// Builds into one place take turns: each sees only what finished
	// builds and killed ones left.
	defer lockDir(parent)()
	removeStale(parent, base)
	tmp, err := os.MkdirTemp(parent, "."+base+".tmp-")
	if err != nil {
		return err
	}
	prev := filepath.Join(parent, "."+base+".prev")
	// Claiming the previous bundle is one rename, so two builds never
	// share it; only a real folder of ours is claimed.
	fresh := true // tmp is empty: nothing to compare or remove
	if fi, err := os.Lstat(prev); err == nil && fi.IsDir() && ours(fi) && isPrev(prev) {
		fresh = claim(prev, tmp) != nil
	}

	ok := false
	defer func() {
		if !ok {
			removeTree(tmp)
		}
	}()
	if err := writeFiles(tmp, t, fresh, alive); err != nil {
		if errors.Is(err, errKilled) {
			ok = true // a killed process leaves its temporary directory
		}
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		err := os.Rename(tmp, dir)
		if err == nil {
			ok = true
			return nil
		}
		if _, serr := os.Lstat(dir); serr != nil {
			return err
		}
		// Another build made dir meanwhile: exchange with it, below.
	}
	if err := exchange(tmp, dir); err != nil {
		// No atomic exchange (another OS or file system): two renames.
		old := tmp + ".old"
		if err := os.Rename(dir, old); err != nil {
			return err
		}
		if err := os.Rename(tmp, dir); err != nil {
			os.Rename(old, dir)
			return err
		}
		tmp = old
	}
	ok = true
	// tmp now holds what dir was: the old bundle, kept for the next build
	// if it is a real folder of ours (dir may have been a link).
	if fi, err := os.Lstat(tmp); err != nil || !fi.IsDir() || !ours(fi) {
		return removeTree(tmp)
	}
	if err := os.WriteFile(filepath.Join(tmp, ".gitignore"), []byte(prevIgnore), 0o644); err != nil || os.Rename(tmp, prev) != nil {
		return removeTree(tmp)
	}
	return nil
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

// writeFiles makes the tree under dir hold exactly t: it writes the files
// that are missing or differ, and removes everything else. dir may be
// empty (fresh: then nothing in it is compared or removed, which halves
// the system calls of a first build) or hold a previous bundle. Folders are done one per task on a few
// goroutines (a bundle is thousands of small files in thousands of
// folders, and the file system handles them in parallel).
func writeFiles(dir string, t Tree, fresh bool, alive func(n int) bool) error {
	byDir := map[string][]string{} // folder: its files, in order
	for _, p := range t.Paths() {
		for d := path.Dir(p); ; d = path.Dir(d) {
			if _, ok := byDir[d]; !ok {
				byDir[d] = nil
			}
			if d == "." {
				break
			}
		}
		byDir[path.Dir(p)] = append(byDir[path.Dir(p)], p)
	}
	// Folders by depth, so that each level's parents exist.
	var levels [][]string
	for _, d := range model.Sorted(byDir) {
		if _, ok := t[d]; ok {
			return fmt.Errorf("%s is both a file and a folder of the bundle", d)
		}
		depth := 0
		if d != "." {
			depth = strings.Count(d, "/") + 1
		}
		for len(levels) <= depth {
			levels = append(levels, nil)
		}
		levels[depth] = append(levels[depth], d)
	}

	// Read once a tree: charter never changes its umask, tests do.
	chmod := !umaskKeeps(dir, 0o755|0o644)
	var (
		written atomic.Int64
		mu      sync.Mutex
		first   error
	)
	syncDir := func(d string) {
		var err error
		if fresh {
			err = makeDir(dir, d, chmod)
		} else {
			err = updateDir(dir, d, t, byDir)
		}
		for _, p := range byDir[d] {
			if err != nil {
				break
			}
			name := filepath.Join(dir, filepath.FromSlash(p))
			if fresh {
				err = createFile(name, t[p], chmod)
			} else {
				err = writeFile(name, t[p], chmod)
			}
			if err == nil && alive != nil && !alive(int(written.Add(1))) {
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
	for _, level := range levels {
		parallel(level, syncDir)
		if first != nil {
			return first
		}
	}
	return nil
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

// updateDir makes dir/d a folder (not a link to one) and removes every
// entry in it that the bundle does not have: neither a file of t nor a
// folder of byDir.
func updateDir(dir, d string, t Tree, byDir map[string][]string) error {
	name := filepath.Join(dir, filepath.FromSlash(d))
	fi, err := os.Lstat(name)
	if err == nil && (!fi.IsDir() || !ours(fi)) {
		if err := os.RemoveAll(name); err != nil { // a link: removes the link only
			return err
		}
	}
	if err != nil || !fi.IsDir() || !ours(fi) {
		if err := os.Mkdir(name, 0o755); err != nil {
			return err
		}
		return os.Chmod(name, 0o755) // whatever the umask: the same bundle every time
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
		_, isFile := t[p]
		_, isDir := byDir[p]
		if isFile && e.Type().IsRegular() || isDir && e.IsDir() {
			continue
		}
		if err := os.RemoveAll(filepath.Join(name, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// writeFile makes name a file of mode 0644 holding data. A file that holds
// data already is left as it is (its modification time too, so tools that
// compare them skip it); any other is replaced, never written in place.
func writeFile(name string, data []byte, chmod bool) error {
	if sameFile(name, data) {
		return nil
	}
	if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return createFile(name, data, chmod)
}

// createFile makes name, which does not exist, a file of mode 0644
// holding data; chmod is false when the umask leaves 0644 as it is.
func createFile(name string, data []byte, chmod bool) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if chmod {
		if err := f.Chmod(0o644); err != nil { // whatever the umask
			f.Close()
			return err
		}
	}
	return f.Close()
}

// sameFile reports whether name is a regular file (not a link) that
// writeFile could have made (owned by this process's user, mode 0644) and
// holds exactly data.
func sameFile(name string, data []byte) bool {
	f, fi, ok := openOwn(name)
	if !ok {
		return false
	}
	defer f.Close()
	if fi.Size() != int64(len(data)) {
		return false
	}
	buf := make([]byte, len(data)+1) // one more, to see the end
	n, err := io.ReadFull(f, buf)
	return (err == io.ErrUnexpectedEOF || err == io.EOF) && bytes.Equal(buf[:n], data)
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
func Epoch(src *Source) (time.Time, error) {
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
func SourceEpoch(src *Source) time.Time {
	if src != nil && !src.Time.IsZero() {
		return src.Time.UTC().Truncate(time.Second)
	}
	return time.Unix(0, 0).UTC()
}

// WriteArchive writes t as a reproducible tar.gz: entries sorted, folders
// before their files, mode 0755/0644, owner 0:0 with no names, every mtime
// set to mtime, and a gzip header without name or time.
func WriteArchive(w io.Writer, t Tree, mtime time.Time) error {
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
