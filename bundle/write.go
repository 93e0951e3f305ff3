package bundle

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// OutError says why a directory cannot receive a bundle.
type OutError struct {
	Dir    string
	Reason string
}

func (e *OutError) Error() string {
	return fmt.Sprintf("cannot write the bundle to %s: %s", e.Dir, e.Reason)
}

// CheckOut refuses an output directory that would destroy something: a
// file, the config root or a directory that holds it, or an existing
// directory that is not a previous bundle (has no manifest.json).
func CheckOut(out, configRoot string) error {
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
		return &OutError{out, "it is (or contains) the config root, which the build would replace; choose a directory such as dist"}
	}
	fi, err := os.Stat(out)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return &OutError{out, err.Error()}
	case !fi.IsDir():
		return &OutError{out, "it is a file, not a directory; remove it or choose another --out"}
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		return &OutError{out, err.Error()}
	}
	if len(entries) == 0 {
		return nil
	}
	if _, err := os.Stat(filepath.Join(out, "manifest.json")); err != nil {
		return &OutError{out, "it is not empty and holds no manifest.json, so it is not a charter bundle that may be replaced; choose an empty or new directory"}
	}
	return nil
}

// writeHook, when set by tests, runs after each file is written; when it
// returns false the process "dies" there: WriteDir stops at once, cleaning
// nothing up, as a killed process would.
var writeHook func(n int) bool

// errKilled is what WriteDir returns when writeHook stops it.
var errKilled = errors.New("build killed (test)")

// WriteDir writes t into dir atomically: into a temporary sibling first,
// which then takes dir's place in one rename (an exchange when dir exists),
// so readers see the old bundle or the new one, and a failed or killed
// build leaves the old one untouched.
func WriteDir(dir string, t Tree) error {
	dir = filepath.Clean(dir)
	parent, base := filepath.Dir(dir), filepath.Base(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	removeStale(parent, base)
	tmp, err := os.MkdirTemp(parent, "."+base+".tmp-")
	if err != nil {
		return err
	}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(tmp)
		}
	}()
	if err := writeFiles(tmp, t); err != nil {
		if errors.Is(err, errKilled) {
			ok = true // a killed process leaves its temporary directory
		}
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		if err := os.Rename(tmp, dir); err != nil {
			return err
		}
		ok = true
		return nil
	}
	if err := unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, dir, unix.RENAME_EXCHANGE); err != nil {
		// No atomic exchange (another OS or file system): two renames.
		old := tmp + ".old"
		if err := os.Rename(dir, old); err != nil {
			return err
		}
		if err := os.Rename(tmp, dir); err != nil {
			os.Rename(old, dir)
			return err
		}
		os.RemoveAll(old)
		ok = true
		return nil
	}
	ok = true
	return os.RemoveAll(tmp) // now holds the old bundle
}

// writeFiles writes t under dir: the folders first, then the files from a
// few goroutines (a bundle is thousands of small files, and the file system
// does their creation in parallel).
func writeFiles(dir string, t Tree) error {
	paths := t.Paths()
	made := map[string]bool{}
	for _, p := range paths {
		d := filepath.Join(dir, filepath.FromSlash(path.Dir(p)))
		if !made[d] {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return err
			}
			made[d] = true
		}
	}
	var (
		wg      sync.WaitGroup
		next    = make(chan string)
		written atomic.Int64
		mu      sync.Mutex
		first   error
	)
	for range 8 {
		wg.Go(func() {
			for p := range next {
				err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(p)), t[p], 0o644)
				if err == nil && writeHook != nil && !writeHook(int(written.Add(1))) {
					err = errKilled
				}
				mu.Lock()
				if err != nil && first == nil {
					first = err
				}
				mu.Unlock()
			}
		})
	}
	for _, p := range paths {
		next <- p
	}
	close(next)
	wg.Wait()
	return first
}

// removeStale deletes temporary directories that a killed build left.
func removeStale(parent, base string) {
	matches, _ := filepath.Glob(filepath.Join(parent, "."+base+".tmp-*"))
	for _, m := range matches {
		os.RemoveAll(m)
	}
}

// Epoch returns the archive timestamp: SOURCE_DATE_EPOCH when set, else the
// source commit's time, else the Unix epoch.
func Epoch(src *Source) (time.Time, error) {
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		var sec int64
		if _, err := fmt.Sscan(s, &sec); err != nil {
			return time.Time{}, fmt.Errorf("SOURCE_DATE_EPOCH=%q is not a number of seconds", s)
		}
		return time.Unix(sec, 0).UTC(), nil
	}
	if src != nil && !src.Time.IsZero() {
		return src.Time.UTC().Truncate(time.Second), nil
	}
	return time.Unix(0, 0).UTC(), nil
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
