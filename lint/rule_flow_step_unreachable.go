package lint

import (
	"fmt"

	"github.com/charter-dev/charter/internal/artifact/flow"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
)

var flowStepUnreachable = &Rule{
	ID:       "flow-step-unreachable",
	Severity: diag.Error,
	Summary:  "a flow step that no path from the flow's first step reaches",
	Doc: doc(`A flow starts at its first step and goes on only where a step's next leads. A step that no next names, directly or through the steps it leads from, never runs: its agent, its passes and its next are declared and have no effect. Name the step in the next of a step before it, or remove it.`,
		`flows: dev: steps: [
	{name: "plan", agent: "priya"},
	{name: "code", agent: "sarah"}, // no next leads here
]`,
		`flows: dev: steps: [
	{name: "plan", agent: "priya", next: [{step: "code"}]},
	{name: "code", agent: "sarah"},
]`),
	Run: func(p *Pass) {
		for _, name := range model.Sorted(p.Config.Flows) {
			f := flow.Resolve(p.Config, name)
			for i, s := range f.Steps {
				if !s.Reachable {
					p.Reportf([]string{"flows", name, "steps", fmt.Sprintf("[%d]", i)}, "step %s is reached from no step: the flow starts at its first step (%s) and follows next; name it in a next, or remove it", s.Name, f.Steps[0].Name)
				}
			}
		}
	},
}
