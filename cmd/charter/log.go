package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/history"
	"github.com/charter-dev/charter/load"
	"github.com/charter-dev/charter/revision"
	"github.com/charter-dev/charter/source"
)

type logOptions struct {
	format string
	limit  int
	rev    string
}

func newLogCmd(g *globals) *cobra.Command {
	o := &logOptions{}
	cmd := &cobra.Command{
		Use:   "log AGENT [--format text|json] [-n N]",
		Short: "List an agent's versions through Git history",
		Long: `log walks the commits that changed the config root (exactly those
'git log -- <config root>' lists), newest first from HEAD (or --rev), and
lists AGENT's versions: version 1 is the first commit where the agent
exists, and the number goes up each time its content hash changes. Each
version shows the commit, author and date, committer, signature status
(signed or unsigned: never verified), Reviewed-by and Approved-by trailers,
the content hash and a one-line summary of the change. A commit that only
reformats files is no new version; a renamed file keeps the agent's history
(agents are keyed by id); a removed agent's last entry says removed. Each
distinct config tree is evaluated once.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runLog(g, o, args[0]) },
	}
	cmd.Flags().StringVar(&o.format, "format", "text", "output format: text or json")
	cmd.Flags().IntVarP(&o.limit, "max-count", "n", 0, "show only the newest N versions")
	cmd.Flags().StringVar(&o.rev, "rev", "HEAD", "walk history from this revision")
	return cmd
}

func runLog(g *globals, o *logOptions, id string) error {
	if o.format != "text" && o.format != "json" {
		return usage("unknown format %q; valid formats: text, json", o.format)
	}
	versions, err := agentVersions(g, o.rev, id)
	if err != nil {
		return err
	}
	if o.limit > 0 && len(versions) > o.limit {
		versions = versions[len(versions)-o.limit:]
	}
	// Newest first, as git log.
	for i, j := 0, len(versions)-1; i < j; i, j = i+1, j-1 {
		versions[i], versions[j] = versions[j], versions[i]
	}
	if o.format == "json" {
		if versions == nil {
			versions = []history.Version{}
		}
		return writeJSON(g.stdout, versions)
	}
	for _, v := range versions {
		e := v.Entry
		fmt.Fprintf(g.stdout, "v%d  %s  %s  %s <%s>\n", v.Number, e.Commit.String()[:12],
			e.Author.When.UTC().Format(time.DateTime), e.Author.Name, e.Author.Email)
		if v.Removed {
			fmt.Fprintf(g.stdout, "    removed\n")
		} else {
			fmt.Fprintf(g.stdout, "    hash %s  %s\n", v.ContentHash[:16], v.Summary)
		}
		var notes []string
		if e.Committer.Name != e.Author.Name || e.Committer.Email != e.Author.Email {
			notes = append(notes, "committed by "+e.Committer.Name+" <"+e.Committer.Email+">")
		}
		notes = append(notes, e.Signature.String()+" (not verified)")
		for _, r := range e.ReviewedBy {
			notes = append(notes, "Reviewed-by: "+r)
		}
		for _, r := range e.ApprovedBy {
			notes = append(notes, "Approved-by: "+r)
		}
		fmt.Fprintf(g.stdout, "    %s\n    %s\n", strings.Join(notes, "; "), e.Subject)
	}
	return nil
}

// agentVersions walks history from rev and returns id's versions, oldest
// first.
func agentVersions(g *globals, rev, id string) ([]history.Version, error) {
	repo, err := source.Open(g.dir)
	if err != nil {
		return nil, &revision.Error{Err: err}
	}
	defer repo.Close()
	progress := newProgress(g)
	defer progress.done()
	entries, snaps, seen, err := agentSnapshots(repo, rev, id, progress)
	if err != nil {
		return nil, fail(err, "")
	}
	versions, invalid := history.Versions(entries, id, func(e *history.Entry) history.Snapshot { return snaps[e.Tree] })
	progress.done()
	if len(invalid) > 0 {
		fmt.Fprintf(g.stderr, "charter: skipped %d commit(s) where the configuration did not validate (oldest %s)\n",
			len(invalid), invalid[0].Commit.String()[:12])
	}
	if !seen && len(versions) == 0 {
		return nil, usage("agent %q does not exist at any commit from %s that changed %s", id, rev, repo.ConfigPath())
	}
	return versions, nil
}

// listedTree is the config tree of a commit the walk found, listed whole
// (files) or, with caches, by the files that changed (changes) since the
// tree listed before it.
type listedTree struct {
	entry   *history.Entry
	files   treeFiles
	changes []fileChange
	err     error
}

// agentSnapshots walks history from rev and evaluates, for agent id, each
// distinct config tree of the commits it finds (newest first, as the walk
// gives them). It returns the walk's entries, the agent's snapshot by
// tree, and whether the agent exists in any of them. The walk, with the
// listing of each tree, runs on its own goroutine while this one
// evaluates: the one reads Git objects, the other evaluates CUE.
func agentSnapshots(repo *source.Repo, rev, id string, progress *progress) ([]*history.Entry, map[plumbing.Hash]history.Snapshot, bool, error) {
	w := &treeWalk{repo: repo, trees: make(chan listedTree, 64), stop: make(chan struct{})}
	defer close(w.stop)
	go w.run(rev)
	l := newAgentLog(repo, id)
	snaps := map[plumbing.Hash]history.Snapshot{}
	for t := range w.trees {
		progress.step("evaluating config trees", len(snaps)+1)
		snaps[t.entry.Tree] = l.snapshot(t)
	}
	return w.entries, snaps, l.seen, w.err
}

// treeWalk walks history and lists each distinct config tree it meets.
type treeWalk struct {
	repo  *source.Repo
	trees chan listedTree // closed when the walk ends
	stop  chan struct{}   // closed to end the walk early
	// entries and err are the walk's, once trees is closed.
	entries []*history.Entry
	err     error
}

func (w *treeWalk) run(rev string) {
	defer close(w.trees)
	listed := map[plumbing.Hash]bool{}
	var last plumbing.Hash // the tree the last changes lead to
	w.err = history.Walk(w.repo, rev, w.repo.ConfigPath(), func(e *history.Entry) error {
		w.entries = append(w.entries, e)
		if listed[e.Tree] {
			return nil
		}
		listed[e.Tree] = true
		t := listedTree{entry: e}
		switch {
		case e.Tree.IsZero() || e.NotDir:
		case !logCaches:
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
			return history.SkipAll
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
	docs map[*revision.Revision]history.Snapshot
	// seen is set once the agent exists in a configuration that validates.
	seen bool
}

func newAgentLog(repo *source.Repo, id string) *agentLog {
	scope := newAgentScope(id)
	scope.blob = repo.Blob
	scope.start() // the empty tree the first changes lead from
	return &agentLog{repo: repo, id: id, scope: scope, docs: map[*revision.Revision]history.Snapshot{}}
}

// snapshot makes t's tree the scope's current one and returns the agent's
// snapshot there.
func (l *agentLog) snapshot(t listedTree) history.Snapshot {
	e := t.entry
	switch {
	case e.Tree.IsZero():
		return history.Snapshot{}
	case e.NotDir:
		return history.Snapshot{Err: &source.PathNotFoundError{Path: l.repo.ConfigPath(), Rev: e.Commit.String(), Commit: e.Commit, NotDir: true}}
	case t.err != nil:
		return history.Snapshot{Err: t.err}
	}
	fsys := l.repo.CommitTree(e.Commit, e.Tree, e.Committer.When)
	var err error
	switch {
	case !logCaches:
		err = l.scope.update(fsys, t.files)
	case l.scope.files == nil:
		// The changes lead from a tree this goroutine could not read:
		// list this one whole.
		err = l.scope.update(fsys, listFiles(fsys))
	default:
		err = l.scope.apply(fsys, t.changes)
	}
	if err != nil {
		return history.Snapshot{Err: err}
	}
	ev, err := l.scope.evaluate(fsys, e.Commit.String())
	switch {
	case err != nil:
		return history.Snapshot{Err: err}
	case !ev.OK():
		return history.Snapshot{Err: fmt.Errorf("%d errors", len(ev.Diagnostics))}
	}
	if _, ok := ev.Program.Config.Agents[l.id]; ok {
		l.seen = true
	}
	s, ok := l.docs[ev]
	if !ok {
		doc, err := agentDoc(ev.Program, l.id)
		s = history.Snapshot{Doc: doc, Err: err}
		l.docs[ev] = s
	}
	return s
}

// progress prints a progress line on a terminal when a walk runs long.
type progress struct {
	g     *globals
	tty   bool
	start time.Time
	shown bool
}

func newProgress(g *globals) *progress {
	return &progress{g: g, tty: isTerminal(g.stderr), start: time.Now()}
}

func (p *progress) step(what string, n int) {
	if !p.tty || time.Since(p.start) < 500*time.Millisecond {
		return
	}
	p.shown = true
	if n > 0 {
		fmt.Fprintf(p.g.stderr, "\r%s: %d", what, n)
	} else {
		fmt.Fprintf(p.g.stderr, "\r%s...", what)
	}
}

func (p *progress) done() {
	if p.shown {
		fmt.Fprint(p.g.stderr, "\r\033[K")
		p.shown = false
	}
}
