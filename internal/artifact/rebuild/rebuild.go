// Package rebuild builds a bundle over the previous one: after an edit of
// a few agents, it evaluates what the edit can change (package
// incremental's scope, as lint --staged and the editor do), renders those
// agents' files and the files that read every agent (team.json from the
// pair sums kept, delegation.json, the manifest), and has the writer
// rewrite only what differs. The bundle is the one a full build gives,
// byte for byte; a random-edit test holds it so.
//
// What it keeps, in the cache directory of package evalcache, is the base:
// the identity of every input file, the graph of who names whom, what
// team.json and delegation.json read of each agent, the credentials
// ignore comments excuse, file by file, and the bundle's listing and
// folders as the writer left them. Anything it cannot answer (an edit of
// a file that declares more than agents, an agent added or removed, a
// base of another build or options, a bundle folder changed by someone
// else) is a full build, which becomes the base.
package rebuild

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing/fstest"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/artifact/bundlefile"
	"github.com/charter-dev/charter/internal/artifact/team"
	"github.com/charter-dev/charter/internal/config/evalcache"
	"github.com/charter-dev/charter/internal/config/incremental"
	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/lint"
)

// Base is what a build leaves for the next one to build over.
type Base struct {
	// Files identify the input files built, and Stats are their Lstats
	// then (evalcache.ReadTrusting).
	Files map[string][32]byte
	Stats *evalcache.Stats
	Graph *incremental.Graph
	// Members and Delegates are what team.json and delegation.json read
	// of every agent; Pairing the pair sums team.json was made from.
	Members   map[string]team.Member
	Delegates map[string][]string
	Pairing   *team.Pairing
	// Excused are the values ignore comments excuse from build's
	// credentials guard, by the file of the comment.
	Excused map[string][]string
	// Listing is every file of the bundle written, with manifest.json;
	// Shaped those that hold a credential's shape (bundle.HoldsShape),
	// judged again on every build.
	Listing []bundlefile.File
	Shaped  []string
	// States are the writer's states of the bundle folder written and of
	// the one it replaced, newest first.
	States []*bundle.State
}

// Options configure a Session.
type Options struct {
	// Cache is the cache directory (evalcache.Dir); "" keeps nothing.
	Cache string
	// Out is the bundle folder.
	Out string
	// Log, when set, gets a line saying what was reused.
	Log io.Writer
}

// Session is one build of a revision into Out through the cache.
type Session struct {
	o      Options
	opened *revision.Opened
	in     *evalcache.Inputs
	entry  string
	base   *Base
}

// Open opens src for a build into o.Out and reads the base the last build
// there left. A Session whose files cannot all be read whole still
// builds in full, without keeping a base.
func Open(src revision.Source, o Options) (*Session, error) {
	opened, err := revision.Open(src)
	if err != nil {
		return nil, err
	}
	s := &Session{o: o, opened: opened}
	abs, err := filepath.Abs(o.Out)
	if err == nil && o.Cache != "" {
		kind := "worktree"
		if src.Staged {
			kind = "staged"
		}
		sum := sha256.Sum256([]byte(abs))
		s.entry = kind + "-build-" + hex.EncodeToString(sum[:8])
		var b Base
		if evalcache.Get(o.Cache, s.entry, abs, &b) && b.Graph != nil && b.Pairing != nil {
			s.base = &b
		} else {
			s.say("no base for this folder and this build of charter")
		}
	}
	// The files whose Lstat is the one the base recorded are not read:
	// at 10,000 agents, reading and hashing them is a fifth of a build
	// over the previous bundle.
	var in *evalcache.Inputs
	var ok bool
	if s.base != nil {
		in, ok = evalcache.ReadTrusting(opened.FS, s.base.Files, s.base.Stats)
	} else {
		in, ok = evalcache.Read(opened.FS)
	}
	if !ok {
		s.say("not used: a file could not be read whole")
		s.base, s.entry = nil, ""
		return s, nil
	}
	s.in = in
	return s, nil
}

// Close releases what Open opened.
func (s *Session) Close() { s.opened.Close() }

// FS is the files to evaluate in full: those the session identified (a
// file edited since is built as it was read).
func (s *Session) FS() fs.FS {
	if s.in == nil {
		return s.opened.FS
	}
	return s.in.Snapshot()
}

// Name is what messages call the revision.
func (s *Session) Name() string { return s.opened.Name }

func (s *Session) say(format string, args ...any) {
	if s.o.Log != nil {
		fmt.Fprintf(s.o.Log, "charter: cache: "+format+"\n", args...)
	}
}

// Update is what a build over the previous bundle writes.
type Update struct {
	// Data are the files rendered again; Files the bundle's every file.
	Data  bundlefile.Tree
	Files []bundlefile.File
	// Agents counts the bundle's agents.
	Agents int
	next   *Base
}

// Incremental builds what an edit since the base changed, with opts
// (which neither sign nor give versions: a rebuild is of the working
// tree or the index). It reports false, and says why in the log, when it
// cannot: then the build is a full one, which also says what is wrong
// with the repository, if anything is.
func (s *Session) Incremental(opts bundle.Options) (*Update, bool) {
	b := s.base
	if b == nil {
		return nil, false
	}
	sc, ok := s.evaluateScope(b)
	if !ok {
		return nil, false
	}
	edited, ok := s.editedAgents(b, sc)
	if !ok {
		return nil, false
	}
	excused, ok := s.guard(b, sc)
	if !ok {
		return nil, false
	}
	members, delegates := maps.Clone(b.Members), maps.Clone(b.Delegates)
	for _, id := range edited {
		members[id] = team.MemberOf(id, sc.prog.Config.Agents[id])
		delegates[id] = sc.compiled[id].Delegates
	}
	var pairing *team.Pairing
	opts.Team = func() *team.Team {
		t, p := b.Pairing.Update(b.Members, members, edited)
		pairing = p
		return t
	}
	compiled := make([]*compiler.Agent, len(edited))
	for i, id := range edited {
		compiled[i] = sc.compiled[id]
	}
	data, listing, err := bundle.Rebuild(sc.prog, compiled, delegates, b.Listing, opts)
	if err != nil {
		s.say("%v", err)
		return nil, false
	}
	shaped, ok := s.judge(b, data, listing, excused)
	if !ok {
		return nil, false
	}
	next := &Base{Files: s.in.Sums(), Stats: s.in.Stats(), Members: members, Delegates: delegates, Pairing: pairing,
		Excused: excused, Listing: listing, Shaped: shaped}
	next.Graph = b.Graph.Advance(sc.changed, sc.files, sc.every)
	s.say("%d files changed; evaluated %d of %d files, rendered %d of %d agents again", len(sc.changed), len(sc.plan.Scope), len(next.Files), len(edited), len(members))
	return &Update{Data: data, Files: listing, Agents: len(members), next: next}, true
}

// scope is the evaluation of what an edit can change.
type scope struct {
	changed  map[string]*incremental.Edit
	plan     *incremental.Plan
	prog     *compiler.Program // the scope's, its agents' delegates resolved against every agent
	files    []*load.File
	compiled map[string]*compiler.Agent // prog's agents by id
	every    *compiler.Program          // prog with every agent (everyAgent)
}

// evaluateScope evaluates what the files changed since b can change, as
// lint's cache and the editor do (package incremental).
func (s *Session) evaluateScope(b *Base) (*scope, bool) {
	changed, ok := s.in.Changed(b.Files)
	if !ok {
		s.say("a file changed could not be read whole")
		return nil, false
	}
	plan, ok := b.Graph.Plan(changed, nil, true)
	if !ok {
		s.say("%d files changed, and one of them declares more than agents, names an agent other than by a plain string (a computed name, a reference) or changes the package: a full build", len(changed))
		return nil, false
	}
	total := len(s.in.Sums())
	if !evalcache.Worth(len(plan.Scope), total) {
		s.say("%d files changed, %d to evaluate of %d: a full build is as cheap", len(changed), len(plan.Scope), total)
		return nil, false
	}
	fsys := fstest.MapFS{}
	for p := range plan.Scope {
		src, ok := s.in.Src(p)
		if !ok {
			s.say("%s could not be read whole", p)
			return nil, false
		}
		fsys[p] = &fstest.MapFile{Data: src}
	}
	if s.in.Torn() {
		s.say("a file changed while it was read: a full build")
		return nil, false
	}
	rev, err := new(revision.Evaluator).EvaluateScope(fsys, s.opened.Name, plan.Elsewhere)
	if err != nil || !rev.OK() {
		s.say("the files changed do not validate: a full build says why")
		return nil, false
	}
	sc := &scope{changed: changed, plan: plan, prog: rev.Program, files: rev.Validation.Repo().Files, compiled: map[string]*compiler.Agent{}}
	for _, a := range sc.prog.Agents {
		sc.compiled[a.ID] = a
	}
	sc.every = everyAgent(sc.prog, b.Members)
	return sc, true
}

// editedAgents returns the agents whose files changed, before or after,
// sorted: all that can render differently, since the rest of the
// repository and the set of agents (by which delegates_to resolves) are
// the same; false when the set of agents is not.
func (s *Session) editedAgents(b *Base, sc *scope) ([]string, bool) {
	edited := map[string]bool{}
	for rel := range sc.changed {
		for _, id := range b.Graph.Declared[rel] {
			edited[id] = true
		}
	}
	for _, f := range sc.files {
		if _, ok := sc.changed[f.Path]; ok {
			ids, _ := load.AgentsOnly(f.Syntax)
			for _, id := range ids {
				edited[id] = true
			}
		}
	}
	for id := range edited {
		if _, ok := b.Members[id]; !ok {
			s.say("agent %s is new: a full build", id)
			return nil, false
		}
		a := sc.compiled[id]
		if a == nil {
			s.say("agent %s is gone: a full build", id)
			return nil, false
		}
		// Resolved against every agent, as a full build resolves them:
		// the scope holds those the edited files name, but not, say,
		// a role's members it does not need to judge.
		a.Delegates = compiler.Delegates(sc.every.Config, a.Decl.Authority.CanDelegateTo)
	}
	return slices.Sorted(maps.Keys(edited)), true
}

// guard runs build's credentials guard on the scope, and returns the
// values ignore comments excuse, by file: the base's for the files out of
// the scope, the scope's for those in it; false when it finds a
// credential (a full build says where).
func (s *Session) guard(b *Base, sc *scope) (map[string][]string, bool) {
	guard := lint.Credentials(sc.prog, sc.files)
	if len(guard.Findings) > 0 {
		s.say("a credential in the files changed: a full build says where")
		return nil, false
	}
	excused := map[string][]string{}
	for rel, vs := range b.Excused {
		if _, ok := sc.changed[rel]; !ok && !sc.plan.Scope[rel] {
			excused[rel] = vs
		}
	}
	for i, v := range guard.Excused {
		excused[guard.ExcusedIn[i]] = append(excused[guard.ExcusedIn[i]], v)
	}
	return excused, true
}

// judge judges what the bundle carries as a full build does: the files
// rendered again (data), and those of before that hold a credential's
// shape, since the values excused may have changed; no other file can
// hold what the judgement reports. It returns the files of the new
// bundle that hold a shape, and false when a credential is found (a full
// build says where) or a file of before is not as the last build wrote
// it.
func (s *Session) judge(b *Base, data bundlefile.Tree, listing []bundlefile.File, excused map[string][]string) ([]string, bool) {
	judged := maps.Clone(data)
	var shaped []string
	for _, p := range b.Shaped {
		if _, ok := data[p]; ok {
			continue
		}
		f, ok := find(listing, p)
		if !ok {
			continue
		}
		src, ok := s.read(f)
		if !ok {
			s.say("%s is not as the last build wrote it", p)
			return nil, false
		}
		judged[p] = src
		shaped = append(shaped, p)
	}
	if leaks, _ := bundle.Scan(judged, slices.Concat(slices.Collect(maps.Values(excused))...)); len(leaks) > 0 {
		s.say("a credential in the bundle: a full build says where")
		return nil, false
	}
	for p, src := range data {
		if bundle.HoldsShape(src) {
			shaped = append(shaped, p)
		}
	}
	slices.Sort(shaped)
	return shaped, true
}

// everyAgent is prog with every agent of members in its configuration
// (those out of the scope as empty declarations): what Graph.Advance
// reads, the names an authority field may give and the edited agents'
// authority, which the scope holds; and the agents a delegate's name
// resolves among (compiler.Delegates reads only which exist).
func everyAgent(prog *compiler.Program, members map[string]team.Member) *compiler.Program {
	p := *prog
	cfg := *prog.Config
	cfg.Agents = make(map[string]*model.Agent, len(members))
	for id := range members {
		if a, ok := prog.Config.Agents[id]; ok {
			cfg.Agents[id] = a
		} else {
			cfg.Agents[id] = &model.Agent{}
		}
	}
	p.Config = &cfg
	return &p
}

// find returns the entry of path p.
func find(listing []bundlefile.File, p string) (bundlefile.File, bool) {
	i, ok := slices.BinarySearchFunc(listing, p, func(f bundlefile.File, p string) int { return strings.Compare(f.Path, p) })
	if !ok {
		return bundlefile.File{}, false
	}
	return listing[i], true
}

// read reads f from the bundle folder, false unless it holds the bytes f
// lists.
func (s *Session) read(f bundlefile.File) ([]byte, bool) {
	src, err := os.ReadFile(filepath.Join(s.o.Out, filepath.FromSlash(f.Path)))
	if err != nil {
		return nil, false
	}
	return src, bundle.FileOf(f.Path, src) == f
}

// Known are the writer's states of the bundle folder and of the one it
// replaced, for the next write (bundle.WriteOver, bundle.WriteDirState);
// none for a nil Session.
func (s *Session) Known() []*bundle.State {
	if s == nil || s.base == nil {
		return nil
	}
	return s.base.States
}

// Wrote keeps u's base, once u is written and the writer left st.
func (s *Session) Wrote(u *Update, st *bundle.State) {
	u.next.States = s.states(st)
	s.keep(u.next)
}

// states are the states to keep after a write that left st: it, and the
// one of the folder it replaced, which the next write starts from.
func (s *Session) states(st *bundle.State) []*bundle.State {
	out := []*bundle.State{st}
	if k := s.Known(); len(k) > 0 {
		out = append(out, k[0])
	}
	return out
}

// Recording is what a full build keeps of its evaluation for the base.
type Recording struct {
	s    *Session
	base *Base
}

// Record notes what the base needs of a full evaluation that validated
// and passed the credentials guard: its user files and program (before
// their sources are released).
func (s *Session) Record(files []*load.File, prog *compiler.Program, guard lint.Guard) *Recording {
	if s.in == nil || s.entry == "" || s.in.Torn() {
		return nil
	}
	b := &Base{Files: s.in.Sums(), Stats: s.in.Stats(), Graph: incremental.NewGraph(files, prog),
		Members: team.Members(prog.Config.Agents), Delegates: make(map[string][]string, len(prog.Agents)), Excused: map[string][]string{}}
	for _, a := range prog.Agents {
		b.Delegates[a.ID] = a.Delegates
	}
	for i, v := range guard.Excused {
		b.Excused[guard.ExcusedIn[i]] = append(b.Excused[guard.ExcusedIn[i]], v)
	}
	return &Recording{s: s, base: b}
}

// Team is team.json of the recorded program, for bundle.Options.Team:
// it keeps the pair sums an update starts from.
func (r *Recording) Team() *team.Team {
	t, p := team.BuildMembers(r.base.Members)
	r.base.Pairing = p
	return t
}

// WroteFull keeps, when r is set, the full build's tree, once it is
// written and the writer left st, as the base; shaped are the tree's
// files that hold a credential's shape (bundle.Scan).
func (s *Session) WroteFull(r *Recording, tree bundlefile.Tree, shaped []string, st *bundle.State) {
	if r == nil || r.base.Pairing == nil {
		return
	}
	b := r.base
	b.Listing = bundle.ManifestListing(tree)
	b.Shaped = shaped
	b.States = s.states(st)
	s.keep(b)
}

// keep writes b as the base; a failure only costs the next build time.
func (s *Session) keep(b *Base) {
	abs, err := filepath.Abs(s.o.Out)
	if err != nil {
		return
	}
	if err := evalcache.Put(s.o.Cache, s.entry, abs, b); err != nil {
		s.say("not written: %v", err)
	}
}
