package diff

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/charter-dev/charter/internal/config/fieldpath"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/internal/output/mdtext"
	"github.com/charter-dev/charter/internal/output/secret"
)

// Report is a whole diff: agent changes (classed) and changes to the other
// declarations (neutral). A diff of one agent carries the fields of seed
// 004's AgentIdentityDiff: the agent's id, the versions compared when a
// side names one (ann@v2), and a one-line summary.
type Report struct {
	From        string   `json:"from"`
	To          string   `json:"to"`
	AgentID     string   `json:"agent_id,omitempty"`
	FromVersion int      `json:"from_version,omitempty"`
	ToVersion   int      `json:"to_version,omitempty"`
	Summary     string   `json:"summary,omitempty"`
	Changes     []Change `json:"changes"`
}

// Counts counts changes by effect.
func (r *Report) Counts() (widened, narrowed, neutral int) {
	for _, c := range r.Changes {
		switch c.Effect {
		case Widened:
			widened++
		case Narrowed:
			narrowed++
		default:
			neutral++
		}
	}
	return
}

// groups splits changes by agent ("" last: other declarations), keeping order.
func (r *Report) groups() ([]string, map[string][]Change) {
	var order []string
	by := map[string][]Change{}
	for _, c := range r.Changes {
		if _, ok := by[c.Agent]; !ok && c.Agent != "" {
			order = append(order, c.Agent)
		}
		by[c.Agent] = append(by[c.Agent], c)
	}
	if len(by[""]) > 0 {
		order = append(order, "")
	}
	return order, by
}

// WriteText writes a readable summary per agent, widened changes first.
func (r *Report) WriteText(w io.Writer) error {
	if len(r.Changes) == 0 {
		_, err := fmt.Fprintf(w, "no changes between %s and %s\n", esc(r.From), esc(r.To))
		return err
	}
	wi, na, ne := r.Counts()
	fmt.Fprintf(w, "%s..%s: %s (%d widened, %d narrowed, %d neutral)\n", esc(r.From), esc(r.To), changes(len(r.Changes)), wi, na, ne)
	order, by := r.groups()
	for _, agent := range order {
		if agent == "" {
			fmt.Fprintf(w, "\nother declarations:\n")
		} else {
			fmt.Fprintf(w, "\nagent %s:\n", esc(agent))
		}
		for _, c := range by[agent] {
			mark := map[string]string{Widened: "! widened ", Narrowed: "  narrowed", Neutral: "          "}[c.Effect]
			fmt.Fprintf(w, "  %s %s %s%s\n", mark, esc(c.Path), describe(c), esc(reason(c)))
		}
	}
	return nil
}

// esc escapes a value from the configuration or Git for a line of text:
// diag.Escape, charter's one escaper.
func esc(s string) string { return diag.Escape(s, "") }

func reason(c Change) string {
	if c.Reason == "" {
		return ""
	}
	return " (" + c.Reason + ")"
}

func describe(c Change) string {
	if strings.HasSuffix(c.Path, ".prompt") && len(c.segs) == 3 {
		switch c.Change {
		case Modified:
			return promptChange(c)
		case Added:
			return fmt.Sprintf("added: %s (see charter render)", lines(promptLines(c.New)))
		case Removed:
			return fmt.Sprintf("removed: %s", lines(promptLines(c.Old)))
		}
	}
	switch {
	case c.Change == Added && c.New == nil:
		return "added" // an agent: its fields follow
	case c.Change == Removed && c.Old == nil:
		return "removed"
	case c.Change == Added:
		return "added " + brief(c.New)
	case c.Change == Removed:
		return "removed (was " + brief(c.Old) + ")"
	}
	return brief(c.Old) + " -> " + brief(c.New)
}

// promptLines counts the lines of a prompt given as JSON.
func promptLines(raw json.RawMessage) int {
	var s string
	json.Unmarshal(raw, &s)
	return len(strings.Split(strings.TrimRight(s, "\n"), "\n"))
}

// lines says "1 line" or "N lines".
func lines(n int) string {
	if n == 1 {
		return "1 line"
	}
	return fmt.Sprintf("%d lines", n)
}

// promptChange counts the lines a prompt change touches.
func promptChange(c Change) string {
	var o, n string
	json.Unmarshal(c.Old, &o)
	json.Unmarshal(c.New, &n)
	ol, nl := strings.Split(o, "\n"), strings.Split(n, "\n")
	in := func(l []string) map[string]int {
		m := map[string]int{}
		for _, x := range l {
			m[x]++
		}
		return m
	}
	om, nm := in(ol), in(nl)
	added, removed := 0, 0
	for x, k := range nm {
		added += max(0, k-om[x])
	}
	for x, k := range om {
		removed += max(0, k-nm[x])
	}
	return fmt.Sprintf("changed: %s added, %d removed (see charter render)", lines(added), removed)
}

// Brief shows a JSON value on one line, cut to 80 bytes, escaped (esc).
func Brief(raw json.RawMessage) string { return brief(raw) }

// brief shows a JSON value on one line, cut to 80 bytes. Credentials are
// redacted before the cut: a credential cut short no longer has its shape,
// and its first characters would pass the redacting writer.
func brief(raw json.RawMessage) string {
	s := esc(secret.Redact(strings.Join(strings.Fields(string(raw)), " ")))
	if len(s) > 80 {
		cut := 77
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return s
}

// WriteMarkdown writes the diff as a pull-request comment.
func (r *Report) WriteMarkdown(w io.Writer) error {
	fmt.Fprintf(w, "### charter diff %s..%s\n\n", mdtext.CellCode(r.From), mdtext.CellCode(r.To))
	if len(r.Changes) == 0 {
		_, err := fmt.Fprintf(w, "No changes to any declaration.\n")
		return err
	}
	wi, na, ne := r.Counts()
	fmt.Fprintf(w, "%s: **%d widened**, %d narrowed, %d neutral.\n", changes(len(r.Changes)), wi, na, ne)
	order, by := r.groups()
	for _, agent := range order {
		if agent == "" {
			fmt.Fprintf(w, "\n#### Other declarations\n\n")
		} else {
			fmt.Fprintf(w, "\n#### Agent %s\n\n", mdtext.CellCode(agent))
		}
		fmt.Fprintf(w, "| effect | path | change |\n| --- | --- | --- |\n")
		for _, c := range by[agent] {
			effect := c.Effect
			if effect == Widened {
				effect = "**widened**"
			}
			fmt.Fprintf(w, "| %s | %s | %s |\n", effect, mdtext.CellCode(c.Path), mdtext.Escape(describe(c)+reason(c)))
		}
	}
	return nil
}

func changes(n int) string {
	if n == 1 {
		return "1 change"
	}
	return fmt.Sprintf("%d changes", n)
}

// Summarize says in one line what changes do: the first change (widened
// ones first), and how many more.
func Summarize(agent string, cs []Change) string {
	if len(cs) == 0 {
		return "no field changed"
	}
	c := cs[0]
	prefix := fieldpath.Path{"agents", agent}.String()
	path := strings.TrimPrefix(c.Path, prefix+".")
	var s string
	switch {
	case c.Path == prefix:
		s = "agent " + c.Change
	case c.Change == Added:
		s = path + " added"
	case c.Change == Removed:
		s = path + " removed"
	default:
		s = path + " " + Brief(c.Old) + " -> " + Brief(c.New)
		if strings.HasSuffix(c.Path, ".prompt") {
			s = "prompt changed"
		}
	}
	if c.Effect != Neutral {
		s = c.Effect + ": " + s
	}
	if n := len(cs) - 1; n > 0 {
		s += fmt.Sprintf(" (+%d more)", n)
	}
	return s
}

// Describe says in words what change c did, with its reason, as the text
// and markdown reports do.
func Describe(c Change) string { return describe(c) + reason(c) }
