package docsgen

import (
	"fmt"
	"strings"

	"github.com/charter-dev/charter/internal/artifact/flow"
	"github.com/charter-dev/charter/internal/config/model"
)

// flows is flows.md: every flow's steps, who runs each, what each needs
// and passes on, and where it goes next.
func (g *gen) flows() []byte {
	d := newDoc("Flows")
	d.p("How the agents hand work on: a flow's first step starts it; each step runs one agent, whose output keys under passes go into the shared context the later steps read.")
	for _, name := range model.Sorted(g.cfg.Flows) {
		f := flow.Resolve(g.cfg, name)
		d.WriteString("## " + text(name) + "\n\n")
		if f.Description != "" {
			d.para(f.Description)
		}
		limit := "unbounded"
		if f.MaxIterations > 0 {
			limit = fmt.Sprint(f.MaxIterations)
		}
		d.list("inputs", codes(f.Inputs), "max iterations", limit, "declared at", code(g.pos("flows", name)))
		var rows [][]string
		for _, s := range f.Steps {
			var next []string
			for _, n := range s.Next {
				t := code(n.Step)
				if n.If != nil {
					t += fmt.Sprintf(" if `%s` = %s", n.If.Field, jsonText(n.If.Equals))
				}
				next = append(next, t)
			}
			if len(next) == 0 {
				next = []string{"end"}
			}
			rows = append(rows, []string{code(s.Name), fmt.Sprintf("[%s](agents/%s.md)", s.Agent, s.Agent), text(s.Runs), codes(s.Needs), codes(s.Passes), strings.Join(next, ", ")})
		}
		d.table([]string{"step", "agent", "runs", "needs", "passes", "next"}, rows)
	}
	return d.Bytes()
}
