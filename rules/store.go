package rules

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strings"
	"time"
)

// Store keeps sessions in a directory, one file per session key, for
// runtimes that judge each call in a new process (such as a hook command).
// Several processes may update the same session at once: Update holds an
// exclusive lock on the session for its whole read-modify-write.
//
// For a key K, the directory holds K.jsonl (the session, in the format of
// WriteJSONL, appended to by each update) and K.lock (the lock file). A key
// that is not a plain file name ([A-Za-z0-9][A-Za-z0-9._-]*, at most 128
// bytes) is replaced by "h-" and the first 32 hex digits of its SHA-256;
// the session of an agent within a session (AgentKey) is K~A.
//
// The store is charter's own and trusts nothing else in the directory: it
// never follows a symbolic link (the directory itself, or a session or
// lock file that is one, is refused), opens only regular files, and works
// relative to the directory it opened, so that a folder moved or swapped
// under an update does not redirect its writes. A lock held longer than
// LockTimeout is an error, not a pass: the caller denies the call.
type Store struct {
	// Dir is the directory; Update creates it (mode 0700) when missing.
	Dir string
	// LockTimeout is how long Update waits for another process's lock
	// before it gives up; zero means DefaultLockTimeout.
	LockTimeout time.Duration
	// Unusable, when set, says why there is no store (no directory to
	// keep sessions in): Update returns it.
	Unusable error
}

// DefaultLockTimeout is how long Update waits for a session's lock.
const DefaultLockTimeout = 5 * time.Second

// MaxSessionFileBytes is the largest session file Update reads; a larger
// one is an error (a session of whole-file reads grows by about 3 KB a
// call).
const MaxSessionFileBytes = 256 << 20

// plainKey reports whether a key is its own file name stem: a letter or
// digit, then at most 127 letters, digits, dots, underscores and hyphens
// (^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$). A loop, not a regular expression:
// compiling that one cost every charter process about 0.1 MB at start.
func plainKey(key string) bool {
	if key == "" || len(key) > 128 {
		return false
	}
	for i := 0; i < len(key); i++ {
		switch c := key[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case i > 0 && (c == '.' || c == '_' || c == '-'):
		default:
			return false
		}
	}
	return true
}

// agentSep separates a session's key from an agent's within it (AgentKey);
// no key holds it.
const agentSep = "\x00"

// AgentKey is the key of the session of one agent (a subagent, say) within
// a runtime's session: its own history and cooldowns. Remove of the
// session's key removes it too.
func AgentKey(session, agent string) string {
	if agent == "" {
		return session
	}
	return session + agentSep + agent
}

// fileName returns the file name stem for a key.
func fileName(key string) string {
	if session, agent, ok := strings.Cut(key, agentSep); ok {
		return stem(session) + "~" + stem(agent)
	}
	return stem(key)
}

func stem(key string) string {
	if plainKey(key) {
		return key
	}
	sum := sha256.Sum256([]byte(key))
	return "h-" + hex.EncodeToString(sum[:16])
}

// open opens the store's directory, creating it when create is set and it
// is missing.
func (st *Store) open(create bool) (*stateDir, error) {
	if st.Unusable != nil {
		return nil, st.Unusable
	}
	if st.Dir == "" {
		return nil, errors.New("session store has no directory; set Store.Dir")
	}
	d, err := openStateDir(st.Dir)
	if errors.Is(err, fs.ErrNotExist) && create {
		if err := MarkOwn(st.Dir); err != nil {
			return nil, fmt.Errorf("creating the session folder: %w", err)
		}
		d, err = openStateDir(st.Dir)
	}
	return d, err
}

func (st *Store) timeout() time.Duration {
	if st.LockTimeout > 0 {
		return st.LockTimeout
	}
	return DefaultLockTimeout
}

// Update loads the session saved under key (empty the first time), calls fn
// with it, and saves what fn changed: the calls it recorded, the rules
// that fired (Evaluate marks them) and the calls asked about. New events
// are appended to the file; nothing is written when nothing changed.
//
// A damaged file (say, a line torn by a crash) does not stop the update:
// its bad lines are skipped, the file is rewritten without them (into a
// temporary file, then renamed over the old one), and they are returned as
// repaired. err is non-nil when the update could not be done (the folder
// or the file is not what the store made, the lock stayed taken, a read or
// write failed), or when fn returned an error (then nothing is saved).
func (st *Store) Update(key string, fn func(s *Session) error) (repaired *CorruptLinesError, err error) {
	if key == "" {
		return nil, errors.New("session key is empty; give each session a key, such as the runtime's session id")
	}
	d, err := st.open(true)
	if err != nil {
		return nil, err
	}
	defer d.close()
	name := fileName(key)
	release, err := lockIn(d, name, st.timeout())
	if err != nil {
		return nil, err
	}
	defer release()

	f, err := d.open(name+".jsonl", os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening the session: %w", err)
	}
	defer f.Close()
	data, err := readSessionFile(f)
	if err != nil {
		return nil, fmt.Errorf("reading session %s: %w", f.Name(), err)
	}
	if len(data) > MaxSessionFileBytes {
		return nil, fmt.Errorf("session %s is larger than %d MiB; charter reads no more (end the session, or remove the file)", f.Name(), MaxSessionFileBytes>>20)
	}
	s, corrupt := readSessionBytes(data)
	oldLen := s.Len()
	oldFired := maps.Clone(s.fired)
	firedLines, askLines := s.firedLines, s.askLines
	if err := fn(s); err != nil {
		return corrupt, err
	}

	// A damaged file, or one where fired or ask lines (which only ever
	// replace each other or are answered) have piled up, is rewritten
	// whole.
	if corrupt != nil || firedLines > 4*len(s.fired)+1024 || askLines > 4*len(s.askOrder)+1024 {
		var buf bytes.Buffer
		if err := s.WriteJSONL(&buf); err != nil {
			return corrupt, fmt.Errorf("saving session: %w", err)
		}
		if err := replaceFile(d, name+".jsonl", buf.Bytes()); err != nil {
			return corrupt, fmt.Errorf("saving session %s: %w", f.Name(), err)
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
	for _, a := range s.newAsks {
		if slices.Contains(s.asked[a.Key], a.Ask) {
			if buf, err = appendAskLine(buf, a); err != nil {
				return nil, err
			}
		}
	}
	if len(buf) == start {
		return nil, nil
	}
	if _, err := f.Write(buf); err != nil {
		return nil, fmt.Errorf("saving session %s: %w", f.Name(), err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("saving session %s: %w", f.Name(), err)
	}
	return nil, nil
}

// readSessionFile reads a session file whole, up to one byte past
// MaxSessionFileBytes, into a buffer of the file's size (io.ReadAll's
// doubling would allocate about twice the file on every call).
func readSessionFile(f *os.File) ([]byte, error) {
	size := int64(0)
	if fi, err := f.Stat(); err == nil {
		size = min(fi.Size(), MaxSessionFileBytes)
	}
	// One byte more than the size, to see the end of the file.
	buf := make([]byte, size+1)
	n, err := io.ReadFull(f, buf)
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		return buf[:n], nil
	case err != nil:
		return nil, err
	}
	// The file is longer than it was at Stat (or than the limit).
	rest, err := io.ReadAll(io.LimitReader(f, MaxSessionFileBytes+1-int64(n)))
	return append(buf, rest...), err
}

// replaceFile writes b to a new temporary file in d and renames it over
// name.
func replaceFile(d *stateDir, name string, b []byte) error {
	var rnd [8]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return err
	}
	tmp := "." + name + ".tmp-" + hex.EncodeToString(rnd[:])
	f, err := d.open(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	defer d.remove(tmp)
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return d.rename(tmp, name)
}

// Remove deletes the session saved under key, if any, and the sessions of
// the agents within it (AgentKey), with their lock files: when the runtime
// says the session has ended.
func (st *Store) Remove(key string) error {
	if key == "" || st.Dir == "" {
		return errors.New("session store: no key or no directory")
	}
	d, err := st.open(false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer d.close()
	name := fileName(key)
	stems := []string{name}
	if !strings.Contains(key, agentSep) {
		entries, err := d.entries()
		if err != nil {
			return err
		}
		for _, e := range entries {
			s := strings.TrimSuffix(strings.TrimSuffix(e.Name(), ".lock"), ".jsonl")
			if s != e.Name() && strings.HasPrefix(s, name+"~") && !slices.Contains(stems, s) {
				stems = append(stems, s)
			}
		}
	}
	var errs []error
	for _, s := range stems {
		if err := removeSession(d, s, st.timeout()); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// removeSession deletes a session's file and lock file, under its lock.
func removeSession(d *stateDir, name string, timeout time.Duration) error {
	exists, _, err := d.lstat(name + ".lock")
	if err != nil {
		return err
	}
	if !exists {
		if err := d.remove(name + ".jsonl"); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing session: %w", err)
		}
		return nil
	}
	release, err := lockIn(d, name, timeout)
	if err != nil {
		return err
	}
	defer release()
	if err := d.remove(name + ".jsonl"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("removing session: %w", err)
	}
	// Removed while held: a process waiting on it finds, once it has the
	// lock, that the file is gone from the folder, and starts again.
	if err := d.remove(name + ".lock"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("removing session lock: %w", err)
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
	d, err := openStateDir(dir)
	if err != nil {
		return err
	}
	defer d.close()
	f, err := d.open(OwnMarker, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.WriteString("charter keeps rule sessions here, and deletes idle ones.\n"); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Prune deletes the sessions not changed for longer than age (sessions
// whose end the runtime never reported, say after a crash) with their lock
// files, lock files as old whose session is gone, and temporary files a
// crash left. It only works in a directory MarkOwn marked; elsewhere it
// deletes nothing. It returns how many sessions it removed.
func (st *Store) Prune(age time.Duration) (int, error) {
	d, err := st.open(false)
	if err != nil {
		return 0, nil
	}
	defer d.close()
	if exists, regular, _ := d.lstat(OwnMarker); !exists || !regular {
		return 0, nil
	}
	entries, err := d.entries()
	if err != nil {
		return 0, err
	}
	cutoff := time.Now().Add(-age)
	old := func(e fs.DirEntry) bool {
		fi, err := e.Info()
		return err == nil && fi.Mode().IsRegular() && fi.ModTime().Before(cutoff)
	}
	n := 0
	sessions := map[string]bool{}
	for _, e := range entries {
		if s, ok := strings.CutSuffix(e.Name(), ".jsonl"); ok {
			sessions[s] = true
		}
	}
	for _, e := range entries {
		name := e.Name()
		stem, isSession := strings.CutSuffix(name, ".jsonl")
		switch {
		case isSession && old(e):
			// Under the session's lock, so that a late call is not lost;
			// a session in use is left alone.
			release, err := lockIn(d, stem, 0)
			if err != nil {
				continue
			}
			if d.remove(name) == nil {
				n++
				d.remove(stem + ".lock")
			}
			release()
		case strings.Contains(name, ".jsonl.tmp") && old(e):
			d.remove(name)
		case strings.HasSuffix(name, ".lock") && !sessions[strings.TrimSuffix(name, ".lock")] && old(e):
			if release, err := lockIn(d, strings.TrimSuffix(name, ".lock"), 0); err == nil {
				d.remove(name)
				release()
			}
		}
	}
	return n, nil
}

// errLocked is returned by tryLock when another process holds the lock.
var errLocked = errors.New("locked")

// lockIn takes the lock of session name in d, waiting up to timeout for
// another process to release it (not at all for 0), and returns the
// function that releases it.
func lockIn(d *stateDir, name string, timeout time.Duration) (func(), error) {
	deadline := time.Now().Add(timeout)
	wait := time.Millisecond
	for {
		f, err := d.open(name+".lock", os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, fmt.Errorf("locking the session: %w", err)
		}
		err = tryLock(f)
		if err == nil {
			if d.same(name+".lock", f) {
				return func() { unlock(f); f.Close() }, nil
			}
			// Removed (and perhaps made again) while we waited: the lock
			// we hold guards nothing.
			unlock(f)
			f.Close()
			err = errLocked
		} else {
			f.Close()
		}
		if !errors.Is(err, errLocked) {
			return nil, fmt.Errorf("locking the session: %w", err)
		}
		if !time.Now().Before(deadline) {
			return nil, fmt.Errorf("session %s/%s is locked by another process and stayed locked for %v", d.path, name, timeout)
		}
		time.Sleep(wait)
		wait = min(2*wait, 50*time.Millisecond)
	}
}
