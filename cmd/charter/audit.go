package main

import (
	"github.com/charter-dev/charter/bundle"
	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/render"
)

// agentDoc returns one agent's agent.json object, or nil when it does not
// exist.
func agentDoc(prog *compiler.Program, id string) (map[string]any, error) {
	for _, a := range prog.Agents {
		if a.ID == id {
			p, err := render.Render(prog, a)
			if err != nil {
				return nil, err
			}
			doc, _, err := bundle.AgentDoc(a, p.String())
			return doc, err
		}
	}
	return nil, nil
}
