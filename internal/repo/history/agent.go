package history

import (
	"fmt"
	"io/fs"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/repo/source"
)

// listedTree is the config tree of a commit the walk found, listed whole
// (files) or, with caches, by the files that changed (changes) since the
// tree listed before it.
type listedTree struct {
	entry   *Entry
	files   treeFiles
	changes []fileChange
	err     error
}

// AgentOptions configure AgentVersions and AgentsVersions.
type AgentOptions struct {
	// NoCaches turns off every cache the agent's scope keeps (file
	// classes, evaluations by scoped content, one CUE context for all of
	// them) and lists every tree whole: tests compare the result with and
	// without them.
	NoCaches bool
	// Progress, when set, is called before each commit's config tree is
	// evaluated with the number of commits met so far, that one included.
	Progress func(n int)
	// Docs makes AgentVersions keep each version's document
	// (Version.Doc), and Changes its field-level changes (Version.Changes,
	// which may hold whole prompts); without them those are nil and
	// memory does not grow with them.
	Docs, Changes bool
	// hashOnly keeps of each snapshot's document its content hash only.
	hashOnly bool
}

// AgentHistory is what AgentVersions found.
type AgentHistory struct {
	// Versions are the agent's versions, oldest first, as Versions
	// numbers them.
	Versions []Version
	// Invalid is the number of commits where the configuration did not
	// validate, and OldestInvalid the oldest of them.
	Invalid       int
	OldestInvalid *Entry
	// Seen reports whether the agent exists in a configuration that
	// validates.
	Seen bool
}

// AgentVersions walks history from rev and returns agent id's versions:
// those Versions makes of the walk (every commit that changes the config
// root, each evaluated in the agent's scope), made as the walk goes.
// Besides the versions it keeps nothing per commit (the caches it keeps
// are bounded), so its memory does not grow with the length of the
// history. A version's Doc and Changes are kept only with opts.Docs and
// opts.Changes.
func AgentVersions(repo *source.Repo, rev, id string, opts AgentOptions) (*AgentHistory, error) {
	hs, err := AgentsVersions(repo, rev, []string{id}, opts)
	if err != nil {
		return nil, err
	}
	return hs[0], nil
}

// AgentsVersions is AgentVersions for each of ids (the result's i-th is
// ids[i]'s), in one walk: the numbers are those charter log gives each
// agent, and an evaluation whose files are the same for two agents is made
// once (see walkAgents).
func AgentsVersions(repo *source.Repo, rev string, ids []string, opts AgentOptions) ([]*AgentHistory, error) {
	streams := make([]*versionStream, len(ids))
	for i, id := range ids {
		streams[i] = &versionStream{agent: id, keep: true, docs: opts.Docs, changes: opts.Changes}
	}
	seen, err := walkAgents(repo, rev, ids, opts, func(e *Entry, snaps []Snapshot) {
		for i, s := range streams {
			s.add(e, snaps[i])
		}
	})
	if err != nil {
		return nil, err
	}
	out := make([]*AgentHistory, len(ids))
	for i, s := range streams {
		out[i] = &AgentHistory{Versions: s.done(), Invalid: s.invalid, OldestInvalid: s.oldestInvalid, Seen: seen[i]}
	}
	return out, nil
}

// VersionNumbers returns, for each of ids that exists at rev, the number
// of its latest version from rev: the number `charter log ID --rev REV`
// gives it, from the same walk and the same scoped evaluations (one walk
// for all of ids; an evaluation whose files are the same for two agents is
// made once). An agent removed at rev, or never seen, is not in the result.
func VersionNumbers(repo *source.Repo, rev string, ids []string) (map[string]int, error) {
	streams := make([]*versionStream, len(ids))
	for i, id := range ids {
		streams[i] = &versionStream{agent: id}
	}
	_, err := walkAgents(repo, rev, ids, AgentOptions{hashOnly: true}, func(e *Entry, snaps []Snapshot) {
		for i, s := range streams {
			s.add(e, snaps[i])
		}
	})
	if err != nil {
		return nil, err
	}
	out := map[string]int{}
	for i, id := range ids {
		s := streams[i]
		s.done()
		if s.n > 0 && !s.newest.v.Removed {
			out[id] = s.n
		}
	}
	return out, nil
}

// walkAgents walks history from rev and calls fn with each commit the
// walk finds, newest first, and the snapshot there of each of ids (snaps[i]
// for ids[i]; fn must not keep snaps). It returns, for each of ids, whether
// the agent exists in a configuration that validates. Their scopes share
// the file classes, the scoped evaluations and the CUE context.
//
// Nothing is kept per commit: a commit whose config tree was met before
// is evaluated again, and the caches by content (the scope's, and the
// snapshots by the files that decide them) answer it when they still hold
// it.
func walkAgents(repo *source.Repo, rev string, ids []string, opts AgentOptions, fn func(e *Entry, snaps []Snapshot)) ([]bool, error) {
	w := &treeWalk{repo: repo, caches: !opts.NoCaches, trees: make(chan listedTree, 64), stop: make(chan struct{})}
	defer close(w.stop)
	go w.run(rev)
	logs := make([]*agentLog, len(ids))
	var shared *agentScope
	for i, id := range ids {
		logs[i] = newAgentLog(repo, id, !opts.NoCaches, shared)
		logs[i].hashOnly = opts.hashOnly
		shared = logs[i].scope
	}
	var wholeEv *revision.Evaluator
	if shared != nil {
		if wholeEv = shared.ev; wholeEv == nil {
			wholeEv = new(revision.Evaluator)
		}
	}
	n := 0
	snaps := make([]Snapshot, len(logs))
	trees := make([]fs.FS, len(logs))
	for t := range w.trees {
		n++
		if opts.Progress != nil {
			opts.Progress(n)
		}
		// A change to a file every scope holds (models, types) would cost
		// an evaluation per agent: when two or more scopes need a new one,
		// the whole tree is evaluated once instead, and where it
		// validates it gives each of them the document its scope would.
		clear(trees)
		var pending []int
		for i, l := range logs {
			fsys, settled := l.advance(t)
			if settled != nil {
				snaps[i] = *settled
				continue
			}
			trees[i] = fsys
			pending = append(pending, i)
		}
		var whole *revision.Revision
		if len(pending) > 1 {
			var fresh int
			for _, i := range pending {
				if !logs[i].known(trees[i]) {
					fresh++
				}
			}
			if fresh > 1 {
				if ev, err := wholeEv.EvaluateFS(trees[pending[0]], t.entry.Commit.String()); err == nil && ev.OK() {
					whole = ev
				}
			}
		}
		for _, i := range pending {
			snaps[i] = logs[i].evaluate(trees[i], t.entry, whole)
		}
		fn(t.entry, snaps)
	}
	if w.err != nil {
		return nil, w.err
	}
	seen := make([]bool, len(logs))
	for i, l := range logs {
		seen[i] = l.seen
	}
	return seen, nil
}

// treeWalk walks history and lists the config tree of each commit it
// meets.
type treeWalk struct {
	repo   *source.Repo
	caches bool
	trees  chan listedTree // closed when the walk ends
	stop   chan struct{}   // closed to end the walk early
	// err is the walk's, once trees is closed.
	err error
}

func (w *treeWalk) run(rev string) {
	defer close(w.trees)
	var last plumbing.Hash // the tree the last changes lead to
	w.err = Walk(w.repo, rev, w.repo.ConfigPath(), func(e *Entry) error {
		t := listedTree{entry: e}
		switch {
		case e.Tree.IsZero() || e.NotDir:
		case !w.caches:
			t.files = listFiles(w.repo.CommitTree(e.Commit, e.Tree, e.Committer.When))
		default:
			diff, err := w.repo.DiffTrees(last, e.Tree, load.Skips)
			if t.err = err; err == nil {
				t.changes, last = fileChanges(diff), e.Tree
			}
		}
		select {
		case w.trees <- t:
			return nil
		case <-w.stop:
			return SkipAll
		}
	})
}

// agentLog turns listed trees, in the order of the walk, into one agent's
// snapshots.
type agentLog struct {
	repo  *source.Repo
	id    string
	scope *agentScope
	// docs holds the snapshots of the evaluations made last, which the
	// scope may reuse.
	docs *recent[*revision.Revision, Snapshot]
	// seen is set once the agent exists in a configuration that validates.
	seen bool
	// hashOnly keeps of each document its content hash only: what
	// numbering versions needs.
	hashOnly bool
	// byScope holds the snapshots made last by the files that decide
	// them (see closureKey).
	byScope *recent[string, Snapshot]
}

// newAgentLog makes id's log; with shared set (and caches on), its scope
// shares shared's caches.
func newAgentLog(repo *source.Repo, id string, caches bool, shared *agentScope) *agentLog {
	scope := newAgentScope(id, caches)
	if shared != nil && caches {
		scope.class, scope.evals, scope.ev, scope.mentions = shared.class, shared.evals, shared.ev, shared.mentions
	}
	scope.blob = repo.Blob
	scope.start() // the empty tree the first changes lead from
	return &agentLog{repo: repo, id: id, scope: scope, docs: newRecent[*revision.Revision, Snapshot](keptEvaluations),
		byScope: newRecent[string, Snapshot](keptSnapshots)}
}

// advance makes t's tree the scope's current one. It returns the tree, or
// the agent's snapshot there when that needs no evaluation.
func (l *agentLog) advance(t listedTree) (fs.FS, *Snapshot) {
	e := t.entry
	switch {
	case e.Tree.IsZero():
		return nil, &Snapshot{}
	case e.NotDir:
		return nil, &Snapshot{Err: &source.PathNotFoundError{Path: l.repo.ConfigPath(), Rev: e.Commit.String(), Commit: e.Commit, NotDir: true}}
	case t.err != nil:
		return nil, &Snapshot{Err: t.err}
	}
	fsys := l.repo.CommitTree(e.Commit, e.Tree, e.Committer.When)
	var err error
	switch {
	case !l.scope.caches:
		err = l.scope.update(fsys, t.files)
	case l.scope.files == nil:
		// The changes lead from a tree this goroutine could not read:
		// list this one whole.
		err = l.scope.update(fsys, listFiles(fsys))
	default:
		err = l.scope.apply(fsys, t.changes)
	}
	if err != nil {
		return nil, &Snapshot{Err: err}
	}
	if len(l.scope.scoped) == 0 && len(l.scope.files) > 0 {
		// Every file declares other agents only: this one does not
		// exist here (an empty scope is no configuration to evaluate).
		return nil, &Snapshot{}
	}
	return fsys, nil
}

// evaluate returns the agent's snapshot in the current tree, fsys, which
// is e's: from whole, the evaluation of the whole tree, when it is given
// and validates (the files out of scope cannot change the agent's
// document), else from the scope's evaluation.
func (l *agentLog) evaluate(fsys fs.FS, e *Entry, whole *revision.Revision) Snapshot {
	fp := l.closureKey(fsys)
	if s, ok := l.byScope.get(fp); ok && fp != "" {
		return s
	}
	if whole != nil {
		s := l.doc(whole)
		if fp != "" {
			l.byScope.put(fp, s)
		}
		return s
	}
	ev, err := l.scope.evaluate(fsys, e.Commit.String())
	switch {
	case err != nil:
		return Snapshot{Err: err}
	case !ev.OK():
		return Snapshot{Err: fmt.Errorf("%d errors", len(ev.Diagnostics))}
	}
	s, ok := l.docs.get(ev)
	if !ok {
		s = l.doc(ev)
		l.docs.put(ev, s)
	}
	if fp != "" {
		l.byScope.put(fp, s)
	}
	return s
}

// closureKey names the files in scope and those its closure adds, by
// path and content: together they decide the agent's snapshot (the scope
// alone when it validates, else with the closure), so a snapshot made
// from the whole tree stands for every tree where they are the same. ""
// when caches are off or a file cannot be read.
func (l *agentLog) closureKey(fsys fs.FS) string {
	if !l.scope.caches {
		return ""
	}
	files, err := l.scope.closure(fsys)
	if err != nil {
		return ""
	}
	_, fp := fingerprint(files)
	return fp
}

// known reports whether the agent's snapshot in the current tree, fsys,
// was made before (evaluate costs no evaluation).
func (l *agentLog) known(fsys fs.FS) bool {
	fp := l.closureKey(fsys)
	_, ok := l.byScope.get(fp)
	return ok && fp != ""
}

// doc returns the agent's snapshot in ev, which validates.
func (l *agentLog) doc(ev *revision.Revision) Snapshot {
	if _, ok := ev.Program.Config.Agents[l.id]; ok {
		l.seen = true
	}
	doc, err := bundle.AgentDocIn(ev.Program, l.id)
	if l.hashOnly && doc != nil {
		doc = map[string]any{"content_hash": doc["content_hash"]}
	}
	return Snapshot{Doc: doc, Err: err}
}
