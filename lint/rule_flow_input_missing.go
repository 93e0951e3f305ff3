package lint

import (
	"fmt"
	"strings"

	"github.com/charter-dev/charter/internal/artifact/flow"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
)

var flowInputMissing = &Rule{
	ID:       "flow-input-missing",
	Severity: diag.Error,
	Summary:  "a flow step's agent needs a variable that neither the flow's inputs nor the steps before it provide",
	Doc: doc(`A step runs its agent with the flow's shared context: the flow's inputs, and the output keys every step before it passed on. Every required runtime variable of the agent's type must be there when the step runs, on every path from the first step, or the runtime cannot fill the agent's prompt. A step passes the keys under passes, or every property of its agent's output schema; only a key the output schema requires is sure to be there. Add the variable to the flow's inputs, pass it from an earlier step whose output has it, or make the variable optional.`,
		`agentTypes: coder: variables: plan: required: true
flows: dev: steps: [
	{name: "code", agent: "sarah"},   // nothing passed plan yet
	{name: "plan", agent: "priya", next: [{step: "code"}]},
]`,
		`flows: dev: steps: [
	{name: "plan", agent: "priya", next: [{step: "code"}]}, // priya's output has plan
	{name: "code", agent: "sarah"},
]`),
	Run: func(p *Pass) {
		for _, name := range model.Sorted(p.Config.Flows) {
			f := flow.Resolve(p.Config, name)
			for i, s := range f.Steps {
				path := []string{"flows", name, "steps", fmt.Sprintf("[%d]", i), "agent"}
				if !s.Reachable {
					continue // flow-step-unreachable
				}
				if len(s.Missing) > 0 {
					p.Reportf(path, "step %s's agent %s needs %s, which the context may lack when the step runs: no input provides it, and on some path to %s no earlier step passes it as a property its output schema requires; add it to the flow's inputs, or pass it from an earlier step that requires it in its output",
						s.Name, s.Agent, strings.Join(s.Missing, ", "), s.Name)
				}
			}
		}
	},
}
