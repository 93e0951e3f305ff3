package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/output/site"
)

type siteOptions struct {
	out     string
	rev     string
	history bool
	diff    string
}

func newSiteCmd(g *globals) *cobra.Command {
	o := &siteOptions{}
	cmd := &cobra.Command{
		Use:   "site --out DIR [--rev REV] [--history] [--diff A..B]",
		Short: "Write a static HTML site of the repository, with pictures",
		Long: `site writes a self-contained static HTML site of the repository for people
who would rather look than run a CLI: index.html (every agent with its
role, type, profile, access level, autonomy and a badge for lint
findings); agents/<id>.html (resolved settings with each option's
sentence, help text and the layers that decided it, the compiled prompt
with each line's source, tools, rules, authority, skills, the A2A card and
the agent's findings); authority.html (the reports_to, can_delegate_to and
can_approve graph, laid out by Graphviz, cycles and low-compatibility pairs
in red); compatibility.html (a heatmap of every pair, or of every pair of
departments above 40 agents, and the lowest-scoring pairs); and the
reference pages charter docs writes. --history adds each agent's version
timeline from Git; --diff A..B adds diff.html, every change from A to B
(B empty: the working tree), widened first.

The pictures are SVG drawn at build time: the site loads nothing from
elsewhere, runs no script and works from file://. The output is
deterministic. --out is written atomically, like build's: a new or empty
directory, or one that holds a previous site and nothing else (every page
charter's, and its style sheet), is replaced; anything else is refused. A repository that does not validate
still gets an index that lists every error, and site exits 1.`,
		Example: `  charter site --out public
  charter site --rev v1.3.0 --history --out public
  charter site --diff v1.2.0..v1.3.0 --out review`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runSite(g, o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.out, "out", "", "directory to write the site into (required)")
	f.StringVar(&o.rev, "rev", "", "show this Git revision instead of the working tree")
	f.BoolVar(&o.history, "history", false, "add every agent's version timeline from Git history")
	f.StringVar(&o.diff, "diff", "", "add a page of the changes from revision A to B, as A..B (A.. for the working tree)")
	return cmd
}

func runSite(g *globals, o *siteOptions) error {
	if o.out == "" {
		return usage("--out is required: name the directory to write the site into, such as --out public")
	}
	if err := bundle.CheckOutput(o.out, g.dir, "the site", "a site charter site wrote", site.IsSite); err != nil {
		return err
	}
	opts := site.Options{Dir: g.dir, Rev: o.rev, History: o.history}
	if o.diff != "" {
		var ok bool
		opts.DiffFrom, opts.DiffTo, ok = strings.Cut(o.diff, "..")
		if !ok || opts.DiffFrom == "" || strings.HasPrefix(opts.DiffTo, ".") {
			return &exitErr{code: exitError,
				err:  fmt.Errorf("--diff %q: want A..B, two revisions (B empty for the working tree)", o.diff),
				hint: "for example --diff v1.2.0..v1.3.0, or --diff HEAD.. for the uncommitted changes"}
		}
	}
	res, err := site.Build(opts)
	if err != nil {
		var re *revision.Error
		if errors.As(err, &re) {
			return withHint(re.Err, re.Hint)
		}
		return err
	}
	for _, n := range res.Notes {
		textf(g.stderr, "charter: %s\n", n)
	}
	if err := bundle.WriteDir(o.out, res.Files); err != nil {
		return withHint(fmt.Errorf("writing %s: %v", o.out, err), "the previous site, if any, is untouched")
	}
	if res.Invalid {
		_ = writeDiagnostics(g, "text", res.Diagnostics)
		g.summaryf(g.stderr, "charter: %s; wrote %s with the errors, %d files\n", countBySeverity(res.Diagnostics), o.out, len(res.Files))
		return findings()
	}
	g.summaryf(g.stdout, "wrote %s: %s, %d files\n", o.out, plural(res.Agents, "agent"), len(res.Files))
	return nil
}
