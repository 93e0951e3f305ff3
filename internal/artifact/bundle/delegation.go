package bundle

import (
	"github.com/charter-dev/charter/compiler"
)

// delegationDoc is what delegation.json holds.
type delegationDoc struct {
	// DelegatesTo maps every agent of the bundle to the agents it may
	// start, sorted.
	DelegatesTo map[string][]string `json:"delegates_to"`
}

// delegation is the content of delegation.json.
func delegation(prog *compiler.Program) delegationDoc {
	d := delegationDoc{DelegatesTo: make(map[string][]string, len(prog.Agents))}
	for _, a := range prog.Agents {
		d.DelegatesTo[a.ID] = nonNil(a.Delegates)
	}
	return d
}
