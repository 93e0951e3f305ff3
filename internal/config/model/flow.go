package model

// Flow is a declared flow: steps that run one agent each, handing their
// output on through a shared context.
type Flow struct {
	Description   string     `json:"description,omitempty"`
	Inputs        []string   `json:"inputs,omitempty"`
	MaxIterations int        `json:"max_iterations,omitempty"`
	Steps         []FlowStep `json:"steps"`
}

// FlowStep is one agent's turn in a flow.
type FlowStep struct {
	Name   string     `json:"name"`
	Agent  string     `json:"agent"`
	Runs   string     `json:"runs,omitempty"`
	Passes []string   `json:"passes,omitempty"`
	Next   []FlowNext `json:"next,omitempty"`
}

// FlowNext is a transition to Step, when If holds (always when nil).
type FlowNext struct {
	Step string    `json:"step"`
	If   *FlowCond `json:"if,omitempty"`
}

// FlowCond holds when the output's Field (a dotted path) equals Equals.
type FlowCond struct {
	Field  string `json:"field"`
	Equals any    `json:"equals"`
}

// Step returns the step named name, or nil.
func (f *Flow) Step(name string) *FlowStep {
	for i := range f.Steps {
		if f.Steps[i].Name == name {
			return &f.Steps[i]
		}
	}
	return nil
}
