package bundle

import (
	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/par"
	"github.com/charter-dev/charter/render"
)

// AgentDocIn returns one agent's agent.json object, or nil when it does not
// exist.
func AgentDocIn(prog *compiler.Program, id string) (map[string]any, error) {
	for _, a := range prog.Agents {
		if a.ID == id {
			p, err := render.Render(prog, a)
			if err != nil {
				return nil, err
			}
			doc, _, err := AgentDoc(a, p.String())
			return doc, err
		}
	}
	return nil, nil
}

// AgentJSONs returns every agent's document as AgentJSON gives it
// (or only one's, when only is set), built in parallel: rendering and
// encoding read the compiled program only.
func AgentJSONs(prog *compiler.Program, only string) (map[string][]byte, error) {
	var agents []*compiler.Agent
	for _, a := range prog.Agents {
		if only == "" || a.ID == only {
			agents = append(agents, a)
		}
	}
	docs := make([][]byte, len(agents))
	errs := make([]error, len(agents))
	par.Each(len(agents), 0, func(i int) {
		p, err := render.Render(prog, agents[i])
		if err == nil {
			docs[i], err = AgentJSON(agents[i], p.String())
		}
		errs[i] = err
	})
	out := make(map[string][]byte, len(agents))
	for i, a := range agents {
		if errs[i] != nil {
			return nil, errs[i]
		}
		out[a.ID] = docs[i]
	}
	return out, nil
}
