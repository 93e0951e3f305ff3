package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/internal/release/review"
	"github.com/charter-dev/charter/internal/repo/diff"
	"github.com/charter-dev/charter/internal/repo/diff/programs"
	"github.com/charter-dev/charter/internal/repo/history"
	"github.com/charter-dev/charter/internal/repo/source"
)

type reviewOptions struct {
	reviews string
	format  string
}

// reviewsHint says how to write review's --reviews file.
const reviewsHint = "write it with gh api repos/OWNER/REPO/pulls/N/reviews --paginate > reviews.json"

func newReviewCmd(g *globals) *cobra.Command {
	o := &reviewOptions{}
	cmd := &cobra.Command{
		Use:   "review [A..B] [--reviews FILE]",
		Short: "Check that an owner approved every change that widens an agent",
		Long: `review compares revision A with B (default origin/main..HEAD) as diff does
and, for every agent a change widens (tools, access level, authority,
budget, a rule disabled or weakened, an agent added), lists the widening
changes, who may approve them and the approvals found. It exits 1 when
one has no approval.

Who may approve a widening of agent X: X's owners (its own, else its
type's, else the repository's), and the owners of the agent or role X
reports to, as the base revision A declares them. The authors of the
range's commits approve nothing in it. Approvals are the Approved-by:
trailers of every commit in A..B (merge commits included) and, with
--reviews, the approving reviews of a pull request in the JSON
gh api repos/OWNER/REPO/pulls/N/reviews prints. An approval by someone
who is not an owner is listed, not counted. An approval covers an agent
as the commit it was given on holds it (the trailer's commit, the
review's commit_id): when the agent widens further after that commit, or
the commit is not in the clone, it is listed, not counted. Narrowed and
neutral changes need no approval.`,
		Example: `  charter review origin/main..HEAD
  charter review --reviews reviews.json --format markdown > comment.md
  charter review "$BASE..$HEAD" --format github`,
		Args: takes(0, "A..B"),
		RunE: func(cmd *cobra.Command, args []string) error {
			rng := "origin/main..HEAD"
			if len(args) > 0 {
				rng = args[0]
			}
			if o.format == "sarif" {
				return sarifOnFailure(g, func() error { return runReview(g, o, rng) })
			}
			return runReview(g, o, rng)
		},
	}
	cmd.Flags().StringVar(&o.reviews, "reviews", "", "a pull request's reviews, as JSON (gh api repos/OWNER/REPO/pulls/N/reviews)")
	formatVar(cmd, &o.format, "text", "markdown", "json", "sarif", "github")
	return cmd
}

func runReview(g *globals, o *reviewOptions, rng string) error {
	from, to, ok := strings.Cut(rng, "..")
	if !ok || from == "" || strings.HasPrefix(to, ".") {
		return usage("review takes a range A..B of two revisions, not %q (for example origin/main..HEAD)", rng)
	}
	if to == "" {
		to = "HEAD"
	}
	in := review.Input{From: from, To: to}
	if o.reviews != "" {
		f, err := os.Open(o.reviews)
		if err != nil {
			return fileFlagError("--reviews", err, "reviews file", reviewsHint)
		}
		in.Reviews, err = review.ParseReviews(f)
		f.Close()
		var pe *fs.PathError
		if errors.As(err, &pe) {
			// A folder opens, and fails only when read.
			return fileFlagError("--reviews", err, "reviews file", reviewsHint)
		}
		if err != nil {
			return withHint(fmt.Errorf("--reviews %s: %v", o.reviews, err), reviewsHint)
		}
	}
	repo, err := source.Open(g.dir)
	if err != nil {
		return &revision.Error{Err: err}
	}
	in.Commits, err = history.Between(repo, from, to)
	repo.Close()
	var shallow *source.ShallowError
	if errors.As(err, &shallow) {
		return withHint(&revision.Error{Err: err}, "a review needs the whole range: fetch it (actions/checkout with fetch-depth: 0)")
	}
	if err != nil {
		return &revision.Error{Err: err}
	}
	base, err := diffSide(g, revision.Source{Rev: from})
	if err != nil {
		return err
	}
	rev, err := evaluate(g, revision.Source{Rev: to})
	if err != nil {
		return err
	}
	head, err := program(g, rev, true)
	if err != nil {
		return err
	}
	in.Changes, err = programs.Compare(base, head, "")
	if err != nil {
		return err
	}
	in.Base, in.Head = base.Config, head.Config
	in.Since = approvedSince(g, rev, head)
	r := review.Run(in)
	locate := func(path ...string) (string, int, int) {
		p := head.Locate(path...)
		return p.File, p.Line, p.Column
	}
	switch o.format {
	case "json":
		err = writeJSON(g.stdout, r)
	case "markdown":
		err = r.WriteMarkdown(g.stdout)
	case "sarif":
		err = writeSARIF(g, r.Diagnostics(locate), []diag.RuleInfo{review.Rule})
	case "github":
		err = writeGitHub(g, r.Diagnostics(locate))
	default:
		err = r.WriteText(g.stdout)
	}
	if err != nil {
		return err
	}
	if !r.OK {
		verb := "widen"
		if r.Unapproved == 1 {
			verb = "widens"
		}
		g.summaryf(g.stderr, "charter: %d of %s %s without an owner's approval\n", r.Unapproved, agentsOrDeclarations(len(r.Items)), verb)
		return findings()
	}
	if o.format == "text" {
		g.summaryf(g.stdout, "ok: %s, every widening approved\n", agentsOrDeclarations(len(r.Items)))
	}
	return nil
}

// approvedSince returns review.Input.Since: the changes from the
// configuration at an approval's commit to the head, evaluated as diff
// evaluates a revision (none when the commit is the head's own).
func approvedSince(g *globals, head *revision.Revision, prog *compiler.Program) func(string) ([]diff.Change, error) {
	return func(commit string) ([]diff.Change, error) {
		if head.Commit != nil && head.Commit.Hash == commit {
			return nil, nil
		}
		// A commit whose config root is the head's tree (an empty commit
		// that carries a trailer, a merge) holds the same configuration.
		o, err := revision.Open(revision.Source{Dir: g.dir, Rev: commit})
		var unknown *source.UnknownRevisionError
		if errors.As(err, &unknown) {
			return nil, errors.New("a commit this clone does not have (a force-push dropped it, or the clone is shallow: fetch-depth: 0)")
		}
		if err != nil {
			return nil, err
		}
		defer o.Close()
		// A hash the clone lacks is looked up as a ref name, as git
		// does: a tag named as the approved commit (anyone who pushes
		// may make one) is some other commit, not what was approved.
		if o.Commit == nil || o.Commit.Hash != commit {
			return nil, errors.New("a commit this clone does not have (a force-push dropped it, or the clone is shallow: fetch-depth: 0); a ref of that name is not the commit")
		}
		if head.Commit != nil && o.Commit.Tree == head.Commit.Tree {
			return nil, nil
		}
		// The commit just read, evaluated: resolved once.
		at, err := new(revision.Evaluator).EvaluateFS(o.FS, commit[:min(12, len(commit))])
		if err != nil {
			return nil, err
		}
		if !at.OK() {
			return nil, errors.New("the configuration there does not validate")
		}
		at.Program.ReleaseSource()
		return programs.Compare(at.Program, prog, "")
	}
}

// agentsOrDeclarations counts review's items: "1 agent or declaration",
// "2 agents or declarations".
func agentsOrDeclarations(n int) string {
	if n == 1 {
		return "1 agent or declaration"
	}
	return fmt.Sprintf("%d agents or declarations", n)
}
