package site

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"slices"
	"strings"

	"github.com/charter-dev/charter/internal/graphviz"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/artifact/team"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/lint"
)

// GraphMax is the number of agents above which the authority graph is
// drawn per department: a layout of thousands of nodes is slow to compute
// and unreadable.
const GraphMax = 500

// edge is one authority relation between two agents.
type edge struct {
	From, To, Relation string
	Score              team.Score
	// Cycle is set when the edge lies on a cycle of its relation.
	Cycle bool
}

// Low reports whether the pair scores below lint's threshold.
func (e edge) Low() bool { return e.Score.Score < lint.CompatibilityThreshold }

// authority lists every reports_to and can_delegate_to edge between
// declared agents, in id order, cycles marked.
func authority(agents map[string]*model.Agent) []edge {
	var es []edge
	for _, id := range model.Sorted(agents) {
		a := agents[id]
		add := func(to, rel string) {
			if b, ok := agents[to]; ok {
				es = append(es, edge{From: id, To: to, Relation: rel, Score: team.Compatibility(a.Personality, b.Personality)})
			}
		}
		if a.Authority.ReportsTo != "" {
			add(a.Authority.ReportsTo, "reports_to")
		}
		for _, to := range a.Authority.CanDelegateTo {
			add(to, "can_delegate_to")
		}
	}
	for _, rel := range []string{"reports_to", "can_delegate_to"} {
		comp := components(es, rel)
		for i := range es {
			if es[i].Relation == rel && comp[es[i].From] == comp[es[i].To] {
				es[i].Cycle = true
			}
		}
	}
	return es
}

// components numbers the strongly connected components of the graph of
// one relation (Tarjan's algorithm); an edge lies on a cycle exactly when
// both its ends share a number, a self-loop included.
func components(es []edge, rel string) map[string]int {
	succ := map[string][]string{}
	var nodes []string
	for _, e := range es {
		if e.Relation == rel {
			succ[e.From] = append(succ[e.From], e.To)
			nodes = append(nodes, e.From, e.To)
		}
	}
	slices.Sort(nodes)
	nodes = slices.Compact(nodes)
	index, low, comp := map[string]int{}, map[string]int{}, map[string]int{}
	on := map[string]bool{}
	var stack []string
	n, c := 0, 0
	var visit func(v string)
	visit = func(v string) {
		index[v], low[v] = n, n
		n++
		stack = append(stack, v)
		on[v] = true
		for _, w := range succ[v] {
			if _, seen := index[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				comp[w] = c
				if w == v {
					break
				}
			}
			c++
		}
	}
	for _, v := range nodes {
		if _, seen := index[v]; !seen {
			visit(v)
		}
	}
	return comp
}

// dot writes the authority graph of agents (a subset of prog's, by id) in
// the DOT language. Node names are n0, n1, ...: no repository value is a
// DOT identifier, and every label is quoted by dotString. prefix is the
// path from the page to the site's root.
func dot(prog *compiler.Program, ids []string, es []edge, prefix string) string {
	var b strings.Builder
	b.WriteString("digraph authority {\n")
	b.WriteString("  graph [rankdir=TB, bgcolor=\"transparent\", nodesep=0.35, ranksep=0.55, fontname=\"Helvetica\"];\n")
	b.WriteString("  node [shape=box, style=\"rounded,filled\", fillcolor=\"#eef3fb\", color=\"#3d5a80\", fontname=\"Helvetica\", fontsize=11, margin=\"0.15,0.06\"];\n")
	b.WriteString("  edge [fontname=\"Helvetica\", fontsize=9, color=\"#3d5a80\", arrowsize=0.7];\n")
	name := map[string]string{}
	for i, id := range ids {
		name[id] = fmt.Sprintf("n%d", i)
	}
	cfg := prog.Config
	var approvals []string
	for _, id := range ids {
		a := cfg.Agents[id]
		label := a.Name
		if label == "" {
			label = id
		}
		sub := id
		if a.Role != "" {
			sub += " · " + a.Role
		}
		fmt.Fprintf(&b, "  %s [id=%s, class=\"agent\", label=%s, URL=%s, tooltip=%s];\n", name[id], dotString("agent-"+id),
			dotString(label+"\n"+sub), dotString(prefix+"agents/"+id+".html"), dotString(id))
		approvals = append(approvals, a.Authority.CanApprove...)
	}
	slices.Sort(approvals)
	approvals = slices.Compact(approvals)
	rule := map[string]string{}
	for i, r := range approvals {
		rule[r] = fmt.Sprintf("r%d", i)
		fmt.Fprintf(&b, "  %s [id=%s, class=\"approval\", shape=note, style=\"filled\", fillcolor=\"#fff7e0\", color=\"#b08900\", fontsize=9, label=%s];\n",
			rule[r], dotString("approval-"+r), dotString(r))
	}
	for _, e := range es {
		from, okf := name[e.From]
		to, okt := name[e.To]
		if !okf || !okt {
			continue
		}
		classes := []string{strings.ReplaceAll(e.Relation, "_", "-")}
		color := "#3d5a80"
		attrs := ""
		if e.Low() {
			classes = append(classes, "low")
			color = "#c0392b"
			attrs += fmt.Sprintf(", label=%s, fontcolor=\"#c0392b\"", dotString(fmt.Sprintf("%.2f", e.Score.Score)))
		}
		if e.Cycle {
			classes = append(classes, "cycle")
			color = "#c0392b"
			attrs += ", penwidth=2.2"
		}
		tip := fmt.Sprintf("%s %s %s: compatibility %.2f", e.From, strings.ReplaceAll(e.Relation, "_", " "), e.To, e.Score.Score)
		if e.Relation == "reports_to" {
			// The manager above: the edge runs down the ranks, its arrow
			// still points at the manager.
			fmt.Fprintf(&b, "  %s -> %s [class=%s, dir=back, color=%s, tooltip=%s%s];\n", to, from, dotString(strings.Join(classes, " ")), dotString(color), dotString(tip), attrs)
		} else {
			fmt.Fprintf(&b, "  %s -> %s [class=%s, style=dashed, constraint=false, color=%s, tooltip=%s%s];\n", from, to, dotString(strings.Join(classes, " ")), dotString(color), dotString(tip), attrs)
		}
	}
	for _, id := range ids {
		for _, r := range cfg.Agents[id].Authority.CanApprove {
			fmt.Fprintf(&b, "  %s -> %s [class=\"approves\", style=dotted, color=\"#b08900\", arrowhead=none, tooltip=%s];\n",
				name[id], rule[r], dotString(id+" may approve "+r))
		}
	}
	b.WriteString("}\n")
	return b.String()
}

// dotString quotes s for DOT. Backslashes are doubled (Graphviz reads
// \n, \N, \G ... in labels), quotes escaped, and & written as &amp;
// (Graphviz takes &name; as an entity); a newline becomes \n, a line
// break in the label.
func dotString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "&", "&amp;", "\r", "", "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

// layout renders DOT as SVG with Graphviz and returns the <svg> element,
// without the XML prolog. Graphviz escapes every label and attribute it
// writes (the tests hold it to that).
func layout(ctx context.Context, gv *graphviz.Graphviz, src string) (template.HTML, error) {
	g, err := graphviz.ParseBytes([]byte(src))
	if err != nil {
		return "", fmt.Errorf("laying out the authority graph: %w", err)
	}
	defer g.Close()
	var out bytes.Buffer
	if err := gv.Render(ctx, g, graphviz.SVG, &out); err != nil {
		return "", fmt.Errorf("laying out the authority graph: %w", err)
	}
	svg := out.Bytes()
	if i := bytes.Index(svg, []byte("<svg")); i >= 0 {
		svg = svg[i:]
	}
	return template.HTML(bytes.TrimSpace(svg)), nil
}
