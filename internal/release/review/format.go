package review

import (
	"fmt"
	"io"
	"strings"

	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/internal/output/mdtext"
	"github.com/charter-dev/charter/internal/repo/diff"
)

// RuleID is the check id review's diagnostics carry (SARIF, GitHub).
const RuleID = "unapproved-widening"

// Rule describes RuleID for SARIF.
var Rule = diag.RuleInfo{ID: RuleID, Severity: diag.Error, Summary: "A change widens an agent and no owner approved it.",
	Doc: "charter review found a change that widens what an agent may do (tools, access level, authority, budget, a rule disabled or weakened) in the range reviewed, and no Approved-by: trailer or pull-request review by one of its owners (the agent's, or those of the agent or role it reports to), other than the commits' authors.\n\nAsk an owner listed in the message to approve the pull request, or add their Approved-by: trailer (docs/release.md)."}

func esc(s string) string { return diag.Escape(s, "") }

func (it *Item) title() string {
	if it.Agent != "" {
		return "agent " + it.Agent
	}
	return it.Declaration
}

func approversText(it *Item) string {
	if len(it.Approvers) == 0 {
		return "nobody (declare owners)"
	}
	return strings.Join(it.Approvers, ", ")
}

func (a Approval) where() string {
	short := a.Commit[:min(12, len(a.Commit))]
	if a.Source == "trailer" {
		return "Approved-by: in " + short
	}
	if isHash(a.Commit) {
		return "review of " + short
	}
	return "review"
}

// WriteText prints the report for a terminal.
func (r *Report) WriteText(w io.Writer) error {
	if len(r.Items) == 0 {
		_, err := fmt.Fprintf(w, "no change from %s to %s widens an agent\n", esc(r.From), esc(r.To))
		return err
	}
	for _, it := range r.Items {
		verdict := "approved"
		if !it.Approved {
			verdict = "NOT APPROVED"
		}
		fmt.Fprintf(w, "%s: %s\n", esc(it.title()), verdict)
		for _, c := range it.Changes {
			fmt.Fprintf(w, "  widened  %s: %s\n", esc(c.Path), esc(diff.Describe(c)))
		}
		fmt.Fprintf(w, "  may approve: %s\n", esc(approversText(it)))
		if it.Note != "" {
			fmt.Fprintf(w, "  (%s)\n", esc(it.Note))
		}
		if len(it.Approvals) == 0 {
			fmt.Fprintf(w, "  approvals: none\n")
		}
		for _, a := range it.Approvals {
			if a.Counted {
				fmt.Fprintf(w, "  approved by %s (%s)\n", esc(a.By), a.where())
			} else {
				fmt.Fprintf(w, "  not counted: %s (%s): %s\n", esc(a.By), a.where(), esc(a.Reason))
			}
		}
	}
	return nil
}

// WriteMarkdown prints the report as a pull-request comment.
func (r *Report) WriteMarkdown(w io.Writer) error {
	fmt.Fprintf(w, "### charter review %s..%s\n\n", mdtext.CellCode(r.From), mdtext.CellCode(r.To))
	if len(r.Items) == 0 {
		_, err := fmt.Fprintf(w, "No change widens an agent: nothing needs an owner's approval.\n")
		return err
	}
	if r.OK {
		fmt.Fprintf(w, "Every widening change has an owner's approval.\n\n")
	} else {
		fmt.Fprintf(w, "**%d of %d need an owner's approval.**\n\n", r.Unapproved, len(r.Items))
	}
	fmt.Fprintf(w, "| | what | widened | may approve | approvals |\n| --- | --- | --- | --- | --- |\n")
	for _, it := range r.Items {
		mark := "✅"
		if !it.Approved {
			mark = "❌"
		}
		var cs, as []string
		for _, c := range it.Changes {
			cs = append(cs, mdtext.CellCode(c.Path)+" "+cell(diff.Describe(c)))
		}
		for _, a := range it.Approvals {
			s := cell(a.By) + " (" + a.where() + ")"
			if !a.Counted {
				s = "~~" + s + "~~: " + cell(a.Reason)
			}
			as = append(as, s)
		}
		if len(as) == 0 {
			as = []string{"none"}
		}
		var ap []string
		for _, o := range it.Approvers {
			ap = append(ap, mdtext.CellCode(o))
		}
		if len(ap) == 0 {
			ap = []string{"nobody: declare owners"}
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", mark, mdtext.CellCode(it.title()), strings.Join(cs, "<br>"), strings.Join(ap, ", "), strings.Join(as, "<br>"))
	}
	return nil
}

// cell escapes s for a table cell: a line feed would end the row.
func cell(s string) string { return strings.ReplaceAll(mdtext.Escape(s), "\n", " ") }

// Diagnostics returns one error per unapproved item, at the position
// locate gives for its declaration, for the SARIF and GitHub formats.
func (r *Report) Diagnostics(locate func(path ...string) (file string, line, col int)) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, it := range r.Items {
		if it.Approved {
			continue
		}
		path := []string{"agents", it.Agent}
		if it.Agent == "" {
			path = strings.SplitN(it.Declaration, ".", 2)
		}
		d := diag.Diagnostic{Severity: diag.Error, Rule: RuleID, Path: strings.Join(path, ".")}
		d.File, d.Line, d.Column = locate(path...)
		var cs []string
		for _, c := range it.Changes {
			cs = append(cs, c.Path+": "+diff.Describe(c))
		}
		d.Message = fmt.Sprintf("%s widens (%s) and no owner approved it; may approve: %s", it.title(), strings.Join(cs, "; "), approversText(it))
		out = append(out, d)
	}
	return diag.Sort(out)
}
