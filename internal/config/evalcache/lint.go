package evalcache

import (
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"testing/fstest"
	"time"

	"github.com/charter-dev/charter/internal/filestat"
	"github.com/charter-dev/charter/internal/gcstart"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/config/incremental"
	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/internal/repo/source"
	"github.com/charter-dev/charter/lint"
)

// Options configure Lint.
type Options struct {
	// Dir is the cache directory (Dir); "" reads and writes no cache.
	Dir string
	// Lint are the options of the run; they are part of an entry's key.
	Lint lint.Options
	// Log, when set, gets one line saying what was reused.
	Log io.Writer
}

// Outcome is what a lint run found, before --new-from-rev.
type Outcome struct {
	// Diags are the diagnostics of loading, validation and compilation,
	// sorted.
	Diags []diag.Diagnostic
	// OK reports whether the revision validated and compiled; only then
	// did the rules run.
	OK bool
	// Lint are the rules' findings, sorted; nil unless OK.
	Lint []diag.Diagnostic
	// Agents counts the agents; Settings are the repository's lint
	// settings (for the rules JUnit lists). Both only when OK.
	Agents   int
	Settings model.LintSettings
}

// lastEntry is the outcome of the last run, for a run over the same files.
type lastEntry struct {
	Digest  [32]byte
	Outcome Outcome
	// Files and Stats identify the files of the run (Inputs.Stats): the
	// next run over a working tree reads none whose Lstat is unchanged.
	Files map[string][32]byte
	Stats *Stats
}

// baseEntry is the last full evaluation: every file's diagnostics, and,
// when it validated, what package incremental needs to redo part of it.
type baseEntry struct {
	Digest      [32]byte
	Files       map[string][32]byte
	Outcome     Outcome
	Incremental bool // every diagnostic is a user file's, and it validated
	Diags, Lint map[string][]diag.Diagnostic
	Graph       *incremental.Graph
	Facts       map[string]lint.AgentFacts
}

// maxScope is the share of the files past which an incremental
// evaluation is not worth it: a full one refreshes the base instead.
var maxScope = 4

// Worth reports whether evaluating a scope of scope files of files is
// worth it, rather than evaluating every file.
func Worth(scope, files int) bool { return scope*maxScope <= files }

// Lint evaluates and lints what src selects, reusing the cache in o.Dir:
// the same outcome as a full run, from the last run's when the files are
// the same, from an incremental evaluation when only files that declare
// agents and nothing else changed since the base, else from a full
// evaluation, which becomes the base. The cache never makes Lint fail:
// what cannot be read or written is a miss.
func Lint(src revision.Source, o Options) (*Outcome, error) {
	opened, err := revision.Open(src)
	if err != nil {
		return nil, err
	}
	defer opened.Close()
	say := func(format string, args ...any) {
		if o.Log != nil {
			fmt.Fprintf(o.Log, "charter: cache: "+format+"\n", args...)
		}
	}
	if o.Dir == "" {
		out, _, err := full(opened.FS, opened.Name, o.Lint, false)
		return out, err
	}
	kind := "worktree"
	switch {
	case src.Staged:
		kind = "staged"
	case src.Rev != "":
		kind = "rev"
	}
	key := fmt.Sprintf("%q %q %q %v", opened.Name, o.Lint.Enable, o.Lint.Disable, o.Lint.NoInlineIgnores)
	var last lastEntry
	haveLast := readEntry(o.Dir, kind+"-last", key, &last)
	in, ok := read(opened.FS, last.Files, last.Stats)
	if !ok {
		say("not used: a file could not be read whole")
		out, _, err := full(opened.FS, opened.Name, o.Lint, false)
		return out, err
	}
	digest := digestOf(in.sums)
	if haveLast && last.Digest == digest {
		say("every file as last time: the last run's outcome")
		return &last.Outcome, nil
	}
	// keep writes the entries of this run, unless a file it trusted
	// unread turned out, read later, to have changed: then what it found
	// mixes two versions of that file, and only the next run knows.
	keep := func(out *Outcome, base *baseEntry) {
		if in.Torn() {
			say("a file changed while it was read: nothing written")
			return
		}
		if base != nil {
			if err := writeEntry(o.Dir, kind+"-base", key, base); err != nil {
				say("not written: %v", err)
				return
			}
		}
		if err := writeEntry(o.Dir, kind+"-last", key, &lastEntry{Digest: digest, Outcome: *out, Files: in.sums, Stats: in.Stats()}); err != nil {
			say("not written: %v", err)
		}
	}
	var base baseEntry
	if readEntry(o.Dir, kind+"-base", key, &base) {
		if base.Digest == digest {
			say("every file as in the base: its outcome")
			keep(&base.Outcome, nil)
			return &base.Outcome, nil
		}
		if out, ok, err := incrementally(opened, in, &base, o.Lint, say); err != nil {
			return nil, err
		} else if ok {
			keep(out, nil)
			return out, nil
		}
	} else {
		say("no base for these options and this build")
	}
	out, b, err := full(in.snapshot(), opened.Name, o.Lint, true)
	if err != nil {
		return nil, err
	}
	b.Digest, b.Files = digest, in.sums
	if !b.Incremental && base.Incremental {
		// A base that validated serves the edits that fix this one.
		say("evaluated in full (%d files); the base stays the last that validated", len(in.sums))
		keep(out, nil)
		return out, nil
	}
	say("evaluated in full (%d files); the base now", len(in.sums))
	keep(out, b)
	return out, nil
}

// Inputs are the files a load reads: each one's identity (the sha256 of
// its bytes, or, in a Git tree or index, its blob id, Git's own hash of
// them, which needs no read) and its bytes on demand.
type Inputs struct {
	fsys  fs.FS
	git   bool // fsys is a Git tree or index: files are known by blob id
	sums  map[string][32]byte
	bytes map[string][]byte
	// stats are the files' Lstats, taken before each was read, for the
	// next ReadTrusting; trusted are the files whose sums were taken from
	// the last one's, unread, and torn tells that one of them, read
	// since, did not hold the bytes of its sum.
	stats   *Stats
	trusted map[string]bool
	torn    bool
}

// Stats are the Lstats of a working tree's input files, kept beside the
// sums they were read with, so that the next ReadTrusting need not read a
// file whose Lstat is unchanged (package filestat): At is when they were
// taken, Coarse whether the file system keeps whole seconds.
type Stats struct {
	At     int64
	Coarse bool
	Files  map[string]filestat.Stat
}

// Stats are the Lstats of the files read, for the next ReadTrusting; nil
// for a Git tree or index, or when any file's is unknown.
func (in *Inputs) Stats() *Stats { return in.stats }

// Torn reports whether a file trusted unread turned out, read later, not
// to hold the bytes of its sum (it changed just then): what was computed
// from these Inputs must not be kept.
func (in *Inputs) Torn() bool { return in.torn }

// Sums are every file's identity, by path.
func (in *Inputs) Sums() map[string][32]byte { return in.sums }

// Digest is one hash of every file's path and identity.
func (in *Inputs) Digest() [32]byte { return digestOf(in.sums) }

// Src returns the bytes of file p, read whole; false when it cannot be.
func (in *Inputs) Src(p string) ([]byte, bool) { return in.src(p) }

func (in *Inputs) src(p string) ([]byte, bool) {
	if b, ok := in.bytes[p]; ok {
		return b, true
	}
	b, ok := in.readFile(p)
	if ok && in.trusted[p] && sha256.Sum256(b) != in.sums[p] {
		in.torn = true
	}
	return b, ok
}

// readFile reads file p whole, and keeps its bytes.
func (in *Inputs) readFile(p string) ([]byte, bool) {
	f, err := in.fsys.Open(p)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, load.MaxFileSize+1))
	if err != nil || len(b) > load.MaxFileSize {
		return nil, false
	}
	in.bytes[p] = b
	return b, true
}

// Changed are the files that differ from those of a base, identified by
// sums: each one's text now, nil for a file removed; false when one
// cannot be read whole.
func (in *Inputs) Changed(sums map[string][32]byte) (map[string]*incremental.Edit, bool) {
	changed := map[string]*incremental.Edit{}
	for p, s := range in.sums {
		if old, ok := sums[p]; !ok || old != s {
			b, ok := in.src(p)
			if !ok {
				return nil, false
			}
			changed[p] = &incremental.Edit{Src: b}
		}
	}
	for p := range sums {
		if _, ok := in.sums[p]; !ok {
			changed[p] = &incremental.Edit{}
		}
	}
	return changed, true
}

// Snapshot is the files as they were identified: the bytes read for a
// working tree (a file edited since is evaluated as hashed, so that the
// base never pairs one text's hash with another's diagnostics), the
// Git tree or index itself, whose blobs do not change.
func (in *Inputs) Snapshot() fs.FS { return in.snapshot() }

func (in *Inputs) snapshot() fs.FS {
	if !in.git {
		for p := range in.trusted {
			if _, ok := in.src(p); !ok {
				in.torn = true
				return in.fsys // gone meanwhile: evaluated as it is now, and nothing kept
			}
		}
		m := fstest.MapFS{}
		for p, b := range in.bytes {
			m[p] = &fstest.MapFile{Data: b}
		}
		return m
	}
	return in.fsys
}

// Read identifies every file a load of fsys reads; false when one cannot
// be read whole or the walk has something to say (a link).
func Read(fsys fs.FS) (*Inputs, bool) { return read(fsys, nil, nil) }

// ReadTrusting is Read, but a file of a working tree whose Lstat is the
// one last recorded (last.Files, from Inputs.Stats) is not read: its sum
// is the one recorded with it (sums), as Git's index trusts a file.
func ReadTrusting(fsys fs.FS, sums map[string][32]byte, last *Stats) (*Inputs, bool) {
	return read(fsys, sums, last)
}

func read(fsys fs.FS, sums map[string][32]byte, last *Stats) (*Inputs, bool) {
	paths, entries, notes, err := load.CUEFileEntries(fsys)
	if err != nil || len(notes) > 0 {
		return nil, false
	}
	in := &Inputs{fsys: fsys, sums: make(map[string][32]byte, len(paths)), bytes: map[string][]byte{}, trusted: map[string]bool{},
		stats: &Stats{At: time.Now().UnixNano(), Coarse: true, Files: make(map[string]filestat.Stat, len(paths))}}
	for i, p := range paths {
		if h, ok := source.BlobHash(entries[i]); ok {
			in.sums[p] = sha256.Sum256([]byte("git blob " + h.String()))
			in.git, in.stats = true, nil
			continue
		}
		var st filestat.Stat
		fi, err := entries[i].Info()
		known := err == nil
		if known {
			st, known = filestat.Of(fi)
		}
		if !known {
			in.stats = nil
		} else if in.stats != nil {
			in.stats.Files[p] = st
			in.stats.Coarse = in.stats.Coarse && st.Mtime%int64(time.Second) == 0
		}
		if sum, ok := sums[p]; ok && known && last != nil {
			if rec, ok := last.Files[p]; ok && filestat.Clean(rec, last.At, last.Coarse, fi) {
				in.sums[p], in.trusted[p] = sum, true
				continue
			}
		}
		b, ok := in.readFile(p)
		if !ok {
			return nil, false
		}
		in.sums[p] = sha256.Sum256(b)
	}
	return in, true
}

// digestOf is one hash of every file's path and hash.
func digestOf(sums map[string][32]byte) [32]byte {
	h := sha256.New()
	for _, p := range slices.Sorted(maps.Keys(sums)) {
		s := sums[p]
		fmt.Fprintf(h, "%d:%s", len(p), p)
		h.Write(s[:])
	}
	var d [32]byte
	h.Sum(d[:0])
	return d
}

// full evaluates and lints fsys in full, and returns the base it makes
// when keep is set.
func full(fsys fs.FS, name string, opts lint.Options, keep bool) (*Outcome, *baseEntry, error) {
	rev, err := new(revision.Evaluator).EvaluateFS(fsys, name)
	if err != nil {
		return nil, nil, err
	}
	out := &Outcome{Diags: rev.Diagnostics}
	b := &baseEntry{Diags: map[string][]diag.Diagnostic{}, Lint: map[string][]diag.Diagnostic{}}
	b.Incremental = keep && rev.OK() && split(rev.Diagnostics, b.Diags)
	if rev.OK() {
		// What is live now is the evaluation (the CUE values, hundreds
		// of MB at thousands of agents); the rules allocate a small part
		// of that, so a collection while they run would mark all of it
		// to free little. A GOGC the user set (off included) is theirs.
		restoreGC := gcstart.Raise(400)
		files := rev.Validation.Repo().Files
		found, err := lint.Run(rev.Program, files, opts)
		restoreGC()
		if err != nil {
			return nil, nil, err
		}
		out.OK, out.Lint, out.Agents, out.Settings = true, found, len(rev.Program.Agents), rev.Program.Config.Lint
		b.Incremental = b.Incremental && split(found, b.Lint)
		if b.Incremental {
			b.Graph = incremental.NewGraph(files, rev.Program)
			b.Facts = map[string]lint.AgentFacts{}
			for _, a := range rev.Program.Agents {
				b.Facts[a.ID] = lint.FactsOf(a)
			}
		}
	}
	b.Outcome = *out
	if !b.Incremental {
		b.Diags, b.Lint = nil, nil
	}
	return out, b, nil
}

// split files ds by file into m, and reports whether each is a user
// file's.
func split(ds []diag.Diagnostic, m map[string][]diag.Diagnostic) bool {
	ok := true
	for _, d := range ds {
		if d.File == "" || load.IsEmbedded(d.File) {
			ok = false
			continue
		}
		m[d.File] = append(m[d.File], d)
	}
	return ok
}

// incrementally evaluates what changed since base, and reports false
// when that is not possible or not worth it.
func incrementally(opened *revision.Opened, in *Inputs, base *baseEntry, opts lint.Options, say func(string, ...any)) (*Outcome, bool, error) {
	if !base.Incremental || base.Graph == nil {
		say("the base did not validate, or has diagnostics of no file of yours")
		return nil, false, nil
	}
	changed, ok := in.Changed(base.Files)
	if !ok {
		say("a file changed could not be read whole")
		return nil, false, nil
	}
	plan, ok := base.Graph.Plan(changed, nil, true)
	if !ok {
		say("%d files changed, and one of them declares more than agents, names an agent other than by a plain string (a computed name, a reference) or changes the package: a full evaluation", len(changed))
		return nil, false, nil
	}
	if !Worth(len(plan.Scope), len(in.sums)) {
		say("%d files changed, %d to evaluate of %d: a full evaluation is as cheap", len(changed), len(plan.Scope), len(in.sums))
		return nil, false, nil
	}
	fsys := fstest.MapFS{}
	for p := range plan.Scope {
		b, ok := in.src(p)
		if !ok {
			say("%s could not be read whole", p)
			return nil, false, nil
		}
		fsys[p] = &fstest.MapFile{Data: b}
	}
	stand := func(id string, scoped *compiler.Program) (*compiler.Agent, *model.Agent, bool) {
		f, ok := base.Facts[id]
		if !ok {
			return nil, nil, false
		}
		return f.StandIn(scoped)
	}
	res, ok, err := plan.Evaluate(new(revision.Evaluator), fsys, opened.Name, stand, opts)
	if err != nil || !ok {
		// An error reading part of what was read whole: a full
		// evaluation says what it is.
		say("the incremental evaluation could not run: %v", err)
		return nil, false, nil
	}
	out := &Outcome{}
	out.Diags = assemble(base.Diags, res.Diags, plan.Redo, res.Other)
	if res.Program != nil {
		out.OK = true
		out.Lint = assemble(base.Lint, res.Lint, plan.Redo, nil)
		out.Agents, out.Settings = len(res.Program.Agents), res.Program.Config.Lint
	}
	say("%d files changed (%s); evaluated %d of %d files, redid the diagnostics of %d, kept the base's of the others",
		len(changed), names(changed), len(plan.Scope), len(in.sums), len(plan.Redo))
	return out, true, nil
}

// assemble is every file's diagnostics: the base's, with those of redo
// replaced by now's.
func assemble(base, now map[string][]diag.Diagnostic, redo map[string]bool, other []diag.Diagnostic) []diag.Diagnostic {
	var out []diag.Diagnostic
	for rel, ds := range base {
		if !redo[rel] {
			out = append(out, ds...)
		}
	}
	for rel := range redo {
		out = append(out, now[rel]...)
	}
	return diag.Sort(append(out, other...))
}

// names lists a few of the changed files, for the log.
func names(changed map[string]*incremental.Edit) string {
	ps := slices.Sorted(maps.Keys(changed))
	if len(ps) > 3 {
		ps = append(ps[:3], "...")
	}
	return strings.Join(ps, ", ")
}
