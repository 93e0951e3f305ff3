// Package evalcache keeps charter lint's last results on disk, so that
// the next run over nearly the same files evaluates only what changed:
// the files an edit can change (package incremental, the scope the editor
// uses too), from a base kept here, with every other file's diagnostics
// as the base had them. The result is the one a full run gives, exactly;
// a test of random edits holds it so. Its entries (Get, Put) and input
// identities (Read) also keep the base of a build over the previous
// bundle (package rebuild).
//
// The cache is a directory of the user's own (os.UserCacheDir()/charter,
// or CHARTER_CACHE_DIR; "off" turns it off), one folder per config root,
// mode 0700, files 0600. It holds what the configuration holds (its
// diagnostics, agent ids and the names they use; a build's base also what
// the bundle holds of each agent and the values ignore comments say are
// no credentials) and the Lstats of the files read and written (inode,
// size, mode, owner, times), never anything else: no environment, no
// credential. An entry is keyed by the sha256 of every
// input file (path and bytes), charter's own build and the options that
// change a result; a missing, damaged, truncated, foreign or half-written
// entry is a miss, never an error or a wrong answer (entries are written
// to a temporary file and renamed).
package evalcache

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/charter-dev/charter/internal/atomicfile"
	"github.com/charter-dev/charter/internal/buildinfo"
)

// EnvDir is the environment variable that sets the cache directory;
// "off" turns the cache off.
const EnvDir = "CHARTER_CACHE_DIR"

// Dir returns the cache directory for the config root root, and false
// when caching is off (CHARTER_CACHE_DIR=off) or there is no place for
// it. The directory is not created.
func Dir(root string) (string, bool) {
	top := os.Getenv(EnvDir)
	switch top {
	case "off":
		return "", false
	case "":
		d, err := os.UserCacheDir()
		if err != nil {
			return "", false
		}
		top = filepath.Join(d, "charter")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", false
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(top, "repo-"+hex.EncodeToString(sum[:12])), true
}

// magic starts every entry; a new layout changes it.
const magic = "charter-evalcache-1\n"

// build identifies the running charter: its version, commit, Go and CUE
// versions, and, for a build whose version says nothing of the code (a
// checkout with changes, or no version at all), the executable's own
// identity (executableID). An entry another build wrote is a miss.
var build = sync.OnceValue(func() string {
	info := buildinfo.Read()
	id := fmt.Sprintf("%s %s %s %s", info.Version, info.Commit, info.GoVersion, info.CUEVersion)
	dirty := info.Version == "(devel)" || strings.HasSuffix(info.Version, "+dirty")
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.modified" && s.Value == "true" {
				dirty = true
			}
		}
	}
	if dirty {
		id += " " + executableID()
	}
	return id
})

// Get reads the entry name of dir into v when it was written by this
// build of charter under key; any problem is a miss (false).
func Get(dir, name, key string, v any) bool { return readEntry(dir, name, key, v) }

// Put writes v as the entry name of dir under key; see Get.
func Put(dir, name, key string, v any) error { return writeEntry(dir, name, key, v) }

func readEntry(dir, name, key string, v any) bool {
	for _, p := range []string{dir, filepath.Join(dir, name)} {
		if fi, err := os.Lstat(p); err != nil || !private(fi) || fi.Mode().Type()&fs.ModeSymlink != 0 {
			return false
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil || len(b) < len(magic)+sha256.Size {
		return false
	}
	body, sum := b[:len(b)-sha256.Size], b[len(b)-sha256.Size:]
	if want := sha256.Sum256(body); !bytes.Equal(want[:], sum) || !bytes.HasPrefix(body, []byte(magic)) {
		return false
	}
	dec := gob.NewDecoder(bytes.NewReader(body[len(magic):]))
	var got string
	if err := dec.Decode(&got); err != nil || got != build()+"\x00"+key {
		return false
	}
	defer func() { recover() }() // a damaged entry whose checksum matched is still a miss
	return dec.Decode(v) == nil
}

// writeEntry writes v as the entry name of dir under key, through a temporary
// file renamed into place; a failure leaves no entry, and says why.
func writeEntry(dir, name, key string, v any) error {
	if build() == "" {
		return errors.New("charter's build has no identity")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	// Chmod follows a link: a folder planted as one (in a shared
	// CHARTER_CACHE_DIR) would get the entries, and the mode, of
	// wherever it points.
	if fi, err := os.Lstat(dir); err != nil {
		return err
	} else if !fi.IsDir() {
		return fmt.Errorf("%s is not a folder (a link?): remove it", dir)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return err
	}
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() || !private(fi) {
		return fmt.Errorf("%s is not a folder of yours only: remove it", dir)
	}
	var buf bytes.Buffer
	buf.WriteString(magic)
	enc := gob.NewEncoder(&buf)
	if err := enc.Encode(build() + "\x00" + key); err != nil {
		return err
	}
	if err := enc.Encode(v); err != nil {
		return err
	}
	sum := sha256.Sum256(buf.Bytes())
	buf.Write(sum[:])
	return atomicfile.Write(filepath.Join(dir, name), buf.Bytes(), 0o600)
}

// executableID identifies the running executable's content: the Go build
// ID the linker writes into an ELF binary (its last part is a hash of the
// binary's content), read from one small note instead of hashing some
// 70 MB on every run; elsewhere, or without the note, the file's sha256.
// "" (no identity: no cache) when neither can be read.
func executableID() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	// os.Executable names a path, which a new build may have replaced
	// since this one started (go install while a lint runs); on Linux,
	// /proc/self/exe is the running image whatever the path holds now.
	if runtime.GOOS == "linux" {
		if _, err := os.Stat("/proc/self/exe"); err == nil {
			exe = "/proc/self/exe"
		}
	}
	if id := elfBuildID(exe); id != "" {
		return "buildid " + id
	}
	f, err := os.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return "sha256 " + hex.EncodeToString(h.Sum(nil))
}

// elfBuildID reads the Go build ID note (.note.go.buildid: name "Go",
// type 4) of an ELF file, or "".
func elfBuildID(name string) string {
	f, err := elf.Open(name)
	if err != nil {
		return ""
	}
	defer f.Close()
	sec := f.Section(".note.go.buildid")
	if sec == nil || sec.Size > 1<<12 {
		return ""
	}
	b, err := sec.Data()
	if err != nil || len(b) < 16 {
		return ""
	}
	bo := f.ByteOrder
	namesz, descsz, typ := bo.Uint32(b[0:]), bo.Uint32(b[4:]), bo.Uint32(b[8:])
	if namesz != 4 || typ != 4 || string(b[12:15]) != "Go\x00" || uint64(16)+uint64(descsz) > uint64(len(b)) {
		return ""
	}
	return string(b[16 : 16+descsz])
}
