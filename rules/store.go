package rules

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/charter-dev/charter/internal/atomicfile"
)

// Store keeps sessions in a directory, one file per session key, for
// runtimes that judge each call in a new process (such as a hook command).
// Several processes may update the same session at once: Update holds an
// exclusive lock on the session for its whole read-modify-write.
//
// For a key K, the directory holds K.jsonl (the session, in the format of
// WriteJSONL, appended to by each update) and K.lock (the lock file, never
// removed while in use). A key that is not a plain file name
// ([A-Za-z0-9][A-Za-z0-9._-]*, at most 128 bytes) is replaced by "h-" and
// the first 32 hex digits of its SHA-256.
type Store struct {
	// Dir is the directory; Update creates it (mode 0700) when missing.
	Dir string
	// LockTimeout is how long Update waits for another process's lock
	// before it gives up; zero means 10 seconds.
	LockTimeout time.Duration
	// Unusable, when set, says why there is no store (no directory to
	// keep sessions in): Update returns it.
	Unusable error
}

var plainKey = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

// fileName returns the file name stem for a key.
func fileName(key string) string {
	if plainKey.MatchString(key) {
		return key
	}
	sum := sha256.Sum256([]byte(key))
	return "h-" + hex.EncodeToString(sum[:16])
}

// Update loads the session saved under key (empty the first time), calls fn
// with it, and saves what fn changed: the calls it recorded and the rules
// that fired (Evaluate marks them). New events are appended to the file;
// nothing is written when nothing changed.
//
// A damaged file (say, a line torn by a crash) does not stop the update:
// its bad lines are skipped, the file is rewritten without them (into a
// temporary file, then renamed over the old one), and they are returned as
// repaired. err is non-nil only when the update could not be done, or when
// fn returned an error (then nothing is saved).
func (st *Store) Update(key string, fn func(s *Session) error) (repaired *CorruptLinesError, err error) {
	if key == "" {
		return nil, errors.New("session key is empty; give each session a key, such as the runtime's session id")
	}
	if st.Unusable != nil {
		return nil, st.Unusable
	}
	if st.Dir == "" {
		return nil, errors.New("session store has no directory; set Store.Dir")
	}
	if _, err := os.Stat(st.Dir); errors.Is(err, fs.ErrNotExist) {
		if err := MarkOwn(st.Dir); err != nil {
			return nil, fmt.Errorf("creating the session directory: %w", err)
		}
	}
	name := fileName(key)
	timeout := st.LockTimeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	unlock, err := lockFile(filepath.Join(st.Dir, name+".lock"), timeout)
	if err != nil {
		return nil, err
	}
	defer unlock()

	path := filepath.Join(st.Dir, name+".jsonl")
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("reading session %s: %w", path, err)
	}
	s, corrupt := readSessionBytes(data)
	oldLen := s.Len()
	oldFired := maps.Clone(s.fired)
	firedLines := s.firedLines
	if err := fn(s); err != nil {
		return corrupt, err
	}

	// A damaged file, or one where fired lines (which only ever replace each
	// other) have piled up, is rewritten whole.
	if corrupt != nil || firedLines > 4*len(s.fired)+1024 {
		if err := writeSession(path, s); err != nil {
			return corrupt, err
		}
		return corrupt, nil
	}

	var buf []byte
	if len(data) > 0 && data[len(data)-1] != '\n' {
		buf = append(buf, '\n') // end a torn last line before appending
	}
	start := len(buf)
	for i := oldLen; i < s.Len(); i++ {
		if buf, err = s.appendCallLine(buf, i); err != nil {
			return nil, err
		}
	}
	for _, r := range s.sortedFired() {
		if old, ok := oldFired[r]; !ok || old != s.fired[r] {
			if buf, err = appendFiredLine(buf, r, s.fired[r]); err != nil {
				return nil, err
			}
		}
	}
	if len(buf) == start {
		return nil, nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("saving session: %w", err)
	}
	if _, err := f.Write(buf); err != nil {
		f.Close()
		return nil, fmt.Errorf("saving session %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("saving session %s: %w", path, err)
	}
	return nil, nil
}

// Remove deletes the session saved under key, if any: when the runtime says
// the session has ended. The empty lock file stays (another process may be
// waiting on it); Prune removes it later.
func (st *Store) Remove(key string) error {
	if key == "" || st.Dir == "" {
		return errors.New("session store: no key or no directory")
	}
	name := fileName(key)
	lock := filepath.Join(st.Dir, name+".lock")
	timeout := st.LockTimeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	if _, err := os.Stat(filepath.Join(st.Dir, name+".jsonl")); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	unlock, err := lockFile(lock, timeout)
	if err != nil {
		return err
	}
	defer unlock()
	if err := os.Remove(filepath.Join(st.Dir, name+".jsonl")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("removing session: %w", err)
	}
	return nil
}

// OwnMarker names the file that marks a directory as charter's own session
// store, created with it: Prune deletes nothing elsewhere, since --state-dir
// may name a folder that holds other files.
const OwnMarker = ".charter-sessions"

// MarkOwn records that dir (created if missing) is a session store of
// charter's own, so that Prune may delete idle sessions in it. Update does
// it when it creates the directory.
func MarkOwn(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, OwnMarker), []byte("charter keeps rule sessions here, and deletes idle ones.\n"), 0o600)
}

// Prune deletes the sessions not changed for longer than age (sessions
// whose end the runtime never reported, say after a crash), lock files as
// old whose session is gone, and temporary files a crash left. It only
// works in a directory MarkOwn marked; elsewhere it deletes nothing. It
// returns how many sessions it removed.
func (st *Store) Prune(age time.Duration) (int, error) {
	if _, err := os.Stat(filepath.Join(st.Dir, OwnMarker)); err != nil {
		return 0, nil
	}
	entries, err := os.ReadDir(st.Dir)
	if err != nil {
		return 0, err
	}
	cutoff := time.Now().Add(-age)
	old := func(e fs.DirEntry) bool {
		fi, err := e.Info()
		return err == nil && fi.Mode().IsRegular() && fi.ModTime().Before(cutoff)
	}
	n := 0
	for _, e := range entries {
		name := e.Name()
		stem, isSession := strings.CutSuffix(name, ".jsonl")
		switch {
		case isSession && old(e):
			// Under the session's lock, so that a late call is not lost;
			// a session in use is left alone.
			unlock, err := tryLock(filepath.Join(st.Dir, stem+".lock"))
			if err != nil {
				continue
			}
			if os.Remove(filepath.Join(st.Dir, name)) == nil {
				n++
			}
			unlock()
		case strings.Contains(name, ".jsonl.tmp") && old(e):
			os.Remove(filepath.Join(st.Dir, name))
		}
	}
	for _, e := range entries {
		stem, isLock := strings.CutSuffix(e.Name(), ".lock")
		if !isLock || !old(e) {
			continue
		}
		if _, err := os.Stat(filepath.Join(st.Dir, stem+".jsonl")); errors.Is(err, fs.ErrNotExist) {
			os.Remove(filepath.Join(st.Dir, e.Name()))
		}
	}
	return n, nil
}

// writeSession writes the whole session to a temporary file beside path
// and renames it over path.
func writeSession(path string, s *Session) error {
	var buf bytes.Buffer
	err := s.WriteJSONL(&buf)
	if err == nil {
		err = atomicfile.Write(path, buf.Bytes(), 0o600)
	}
	if err != nil {
		return fmt.Errorf("saving session %s: %w", path, err)
	}
	return nil
}

// errLocked is returned by tryLock when another process holds the lock.
var errLocked = errors.New("locked")

// lockFile takes the lock at path, waiting up to timeout for another
// process to release it, and returns the function that releases it.
func lockFile(path string, timeout time.Duration) (func(), error) {
	deadline := time.Now().Add(timeout)
	wait := time.Millisecond
	for {
		unlock, err := tryLock(path)
		if err == nil {
			return unlock, nil
		}
		if !errors.Is(err, errLocked) {
			return nil, fmt.Errorf("locking session: %w", err)
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("session %s is locked by another process and stayed locked for %v; if no charter process is running, remove the lock file", path, timeout)
		}
		time.Sleep(wait)
		wait = min(2*wait, 50*time.Millisecond)
	}
}
