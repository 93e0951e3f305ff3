package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/internal/repo/history"
	"github.com/charter-dev/charter/internal/repo/source"
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
		Args: takes(1, "AGENT"),
		RunE: func(cmd *cobra.Command, args []string) error { return runLog(g, o, args[0]) },
	}
	formatVar(cmd, &o.format, "text", "json")
	cmd.Flags().IntVarP(&o.limit, "max-count", "n", 0, "show only the newest N versions")
	cmd.Flags().StringVar(&o.rev, "rev", "HEAD", "walk history from this revision")
	return cmd
}

// logDate is how log's text shows a date: the author's, in the author's
// zone with its offset, as Git holds it and git log prints it (a time
// without a zone read as the reader's own).
const logDate = time.DateTime + " -0700"

func runLog(g *globals, o *logOptions, id string) error {
	versions, err := agentVersions(g, o.rev, id, history.AgentOptions{Changes: o.format == "json"})
	if err != nil {
		return err
	}
	versions = history.Newest(versions, o.limit)
	if o.format == "json" {
		return writeJSONArray(g.stdout, versions)
	}
	for _, v := range versions {
		e := v.Entry
		textf(g.stdout, "v%d  %s  %s  %s <%s>\n", v.Number, e.Commit.String()[:12],
			e.Author.When.Format(logDate), e.Author.Name, e.Author.Email)
		if v.Removed {
			fmt.Fprintf(g.stdout, "    removed\n")
		} else {
			textf(g.stdout, "    hash %s  %s\n", v.ContentHash[:16], v.Summary)
		}
		textf(g.stdout, "    %s\n    %s\n", strings.Join(e.Notes(), "; "), e.Subject)
	}
	return nil
}

// writeJSONArray writes vs as writeJSON does, an element at a time: the
// whole array, encoded at once, held the output in memory twice.
func writeJSONArray[T any](w io.Writer, vs []T) error {
	if len(vs) == 0 {
		_, err := io.WriteString(w, "[]\n")
		return err
	}
	bw := bufio.NewWriter(w)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("  ", "  ")
	enc.SetEscapeHTML(false)
	bw.WriteString("[\n")
	for i := range vs {
		b.Reset()
		if err := enc.Encode(&vs[i]); err != nil {
			return err
		}
		bw.WriteString("  ")
		bw.Write(diag.EscapeJSON(bytes.TrimSuffix(b.Bytes(), []byte("\n"))))
		if i < len(vs)-1 {
			bw.WriteString(",")
		}
		bw.WriteString("\n")
	}
	bw.WriteString("]\n")
	return bw.Flush()
}

// agentVersions walks history from rev and returns id's versions, oldest
// first, with what opts asks them to keep.
func agentVersions(g *globals, rev, id string, opts history.AgentOptions) ([]history.Version, error) {
	repo, err := source.Open(g.dir)
	if err != nil {
		return nil, &revision.Error{Err: err}
	}
	defer repo.Close()
	progress := newProgress(g)
	defer progress.done()
	opts.Progress = func(n int) { progress.step("evaluating commits", n) }
	h, err := history.AgentVersions(repo, rev, id, opts)
	if err != nil {
		return nil, err
	}
	versions := h.Versions
	progress.done()
	if h.Invalid > 0 {
		fmt.Fprintf(g.stderr, "charter: skipped %d commit(s) where the configuration did not validate (oldest %s)\n",
			h.Invalid, h.OldestInvalid.Commit.String()[:12])
	}
	if !h.Seen && len(versions) == 0 {
		if root := repo.ConfigPath(); root != "." {
			return nil, usage("agent %q does not exist at any commit from %s that changed %s", id, rev, root)
		}
		return nil, usage("agent %q does not exist at any commit from %s", id, rev)
	}
	return versions, nil
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
