package history

import (
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/charter-dev/charter/bundle"
	"github.com/charter-dev/charter/load"
	"github.com/charter-dev/charter/revision"
	"github.com/charter-dev/charter/source"
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

// AgentOptions configure AgentSnapshots.
type AgentOptions struct {
	// NoCaches turns off every cache the agent's scope keeps (file
	// classes, evaluations by scoped content, one CUE context for all of
	// them) and lists every tree whole: tests compare the result with and
	// without them.
	NoCaches bool
	// Progress, when set, is called before each config tree is evaluated
	// with the number of trees evaluated so far, that one included.
	Progress func(n int)
}

// AgentWalk is what AgentSnapshots found.
type AgentWalk struct {
	// Entries are the walk's, newest first.
	Entries []*Entry
	// Snapshots holds the agent's snapshot by config tree.
	Snapshots map[plumbing.Hash]Snapshot
	// Seen reports whether the agent exists in a configuration that
	// validates.
	Seen bool
}

// AgentSnapshots walks history from rev and evaluates, for agent id, each
// distinct config tree of the commits it finds (newest first, as the walk
// gives them), through the agent's scope (see agentScope): only the files
// that can affect the agent are evaluated, so a commit where a file of an
// agent nobody mentions does not validate is still one of this agent's. The walk, with the
// listing of each tree, runs on its own goroutine while this one
// evaluates: the one reads Git objects, the other evaluates CUE.
func AgentSnapshots(repo *source.Repo, rev, id string, opts AgentOptions) (*AgentWalk, error) {
	walks, err := agentsSnapshots(repo, rev, []string{id}, opts)
	if err != nil {
		return nil, err
	}
	return walks[id], nil
}

// VersionNumbers returns, for each of ids that exists at rev, the number
// of its latest version from rev: the number `charter log ID --rev REV`
// gives it, from the same walk and the same scoped evaluations (one walk
// for all of ids; an evaluation whose files are the same for two agents is
// made once). An agent removed at rev, or never seen, is not in the result.
func VersionNumbers(repo *source.Repo, rev string, ids []string) (map[string]int, error) {
	walks, err := agentsSnapshots(repo, rev, ids, AgentOptions{})
	if err != nil {
		return nil, err
	}
	out := map[string]int{}
	for _, id := range ids {
		vs, _ := walks[id].Versions(id)
		if n := len(vs); n > 0 && !vs[n-1].Removed {
			out[id] = vs[n-1].Number
		}
	}
	return out, nil
}

// agentsSnapshots is AgentSnapshots for several agents along one walk;
// their scopes share the file classes, the scoped evaluations and the CUE
// context.
func agentsSnapshots(repo *source.Repo, rev string, ids []string, opts AgentOptions) (map[string]*AgentWalk, error) {
	w := &treeWalk{repo: repo, caches: !opts.NoCaches, trees: make(chan listedTree, 64), stop: make(chan struct{})}
	defer close(w.stop)
	go w.run(rev)
	logs := make([]*agentLog, len(ids))
	snaps := make([]map[plumbing.Hash]Snapshot, len(ids))
	var shared *agentScope
	for i, id := range ids {
		logs[i] = newAgentLog(repo, id, !opts.NoCaches, shared)
		shared = logs[i].scope
		snaps[i] = map[plumbing.Hash]Snapshot{}
	}
	n := 0
	for t := range w.trees {
		n++
		if opts.Progress != nil {
			opts.Progress(n)
		}
		for i, l := range logs {
			snaps[i][t.entry.Tree] = l.snapshot(t)
		}
	}
	if w.err != nil {
		return nil, w.err
	}
	out := make(map[string]*AgentWalk, len(ids))
	for i, id := range ids {
		out[id] = &AgentWalk{Entries: w.entries, Snapshots: snaps[i], Seen: logs[i].seen}
	}
	return out, nil
}

// Versions returns the agent's versions along the walk, oldest first, and
// the commits where its configuration did not validate (see Versions).
func (w *AgentWalk) Versions(id string) (versions []Version, invalid []*Entry) {
	return Versions(w.Entries, id, func(e *Entry) Snapshot { return w.Snapshots[e.Tree] })
}

// treeWalk walks history and lists each distinct config tree it meets.
type treeWalk struct {
	repo   *source.Repo
	caches bool
	trees  chan listedTree // closed when the walk ends
	stop   chan struct{}   // closed to end the walk early
	// entries and err are the walk's, once trees is closed.
	entries []*Entry
	err     error
}

func (w *treeWalk) run(rev string) {
	defer close(w.trees)
	listed := map[plumbing.Hash]bool{}
	var last plumbing.Hash // the tree the last changes lead to
	w.err = Walk(w.repo, rev, w.repo.ConfigPath(), func(e *Entry) error {
		w.entries = append(w.entries, e)
		if listed[e.Tree] {
			return nil
		}
		listed[e.Tree] = true
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
	// docs holds the snapshot of each evaluation the scope reuses.
	docs map[*revision.Revision]Snapshot
	// seen is set once the agent exists in a configuration that validates.
	seen bool
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
	return &agentLog{repo: repo, id: id, scope: scope, docs: map[*revision.Revision]Snapshot{}}
}

// snapshot makes t's tree the scope's current one and returns the agent's
// snapshot there.
func (l *agentLog) snapshot(t listedTree) Snapshot {
	e := t.entry
	switch {
	case e.Tree.IsZero():
		return Snapshot{}
	case e.NotDir:
		return Snapshot{Err: &source.PathNotFoundError{Path: l.repo.ConfigPath(), Rev: e.Commit.String(), Commit: e.Commit, NotDir: true}}
	case t.err != nil:
		return Snapshot{Err: t.err}
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
		return Snapshot{Err: err}
	}
	if len(l.scope.scoped) == 0 && len(l.scope.files) > 0 {
		// Every file declares other agents only: this one does not
		// exist here (an empty scope is no configuration to evaluate).
		return Snapshot{}
	}
	ev, err := l.scope.evaluate(fsys, e.Commit.String())
	switch {
	case err != nil:
		return Snapshot{Err: err}
	case !ev.OK():
		return Snapshot{Err: fmt.Errorf("%d errors", len(ev.Diagnostics))}
	}
	if _, ok := ev.Program.Config.Agents[l.id]; ok {
		l.seen = true
	}
	s, ok := l.docs[ev]
	if !ok {
		doc, err := bundle.AgentDocIn(ev.Program, l.id)
		s = Snapshot{Doc: doc, Err: err}
		l.docs[ev] = s
	}
	return s
}
