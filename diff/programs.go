package diff

import (
	"bytes"
	"encoding/json"

	"github.com/charter-dev/charter/bundle"
	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/par"
	"github.com/charter-dev/charter/model"
	"github.com/charter-dev/charter/render"
)

// Programs compares two compiled revisions: every agent's resolved
// document, as agent.json holds it (so a change to an agent type, a preset
// or a category default shows on every agent it reaches), classed; then,
// unless only names one agent, every other declaration. With only set,
// just that agent's changes.
func Programs(a, b *compiler.Program, only string) ([]Change, error) {
	da, db, err := changedDocs(a, b, only)
	if err != nil {
		return nil, err
	}
	cs := Agents(da, db)
	if only == "" {
		cs = append(cs, declarationChanges(a, b)...)
	}
	return cs, nil
}

// changedDocs returns the agent.json objects of the agents (or only the one
// named only) whose documents differ between a and b, by id. An agent
// whose document is the same on both sides has no changes, and is left
// out of both: most agents, in most diffs.
func changedDocs(a, b *compiler.Program, only string) (da, db map[string]map[string]any, err error) {
	ra, err := agentJSONs(a, only)
	if err != nil {
		return nil, nil, err
	}
	rb, err := agentJSONs(b, only)
	if err != nil {
		return nil, nil, err
	}
	da, db = map[string]map[string]any{}, map[string]map[string]any{}
	for _, side := range []struct {
		raw, other map[string][]byte
		docs       map[string]map[string]any
	}{{ra, rb, da}, {rb, ra, db}} {
		for id, raw := range side.raw {
			if other, ok := side.other[id]; ok && bytes.Equal(raw, other) {
				continue
			}
			doc, _, err := bundle.DecodeAgent(raw)
			if err != nil {
				return nil, nil, err
			}
			side.docs[id] = doc
		}
	}
	return da, db, nil
}

// agentJSONs returns every agent's document as bundle.AgentJSON gives it
// (or only one's, when only is set), built in parallel: rendering and
// encoding read the compiled program only.
func agentJSONs(prog *compiler.Program, only string) (map[string][]byte, error) {
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
			docs[i], err = bundle.AgentJSON(agents[i], p.String())
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

// declarationChanges diffs every declaration other than agents.
func declarationChanges(a, b *compiler.Program) []Change {
	side := func(p *compiler.Program) map[string]any {
		c := p.Config
		return toJSON(map[string]any{
			"categories": c.Categories, "agentTypes": c.AgentTypes, "presets": c.Presets,
			"behaviorTypes": c.BehaviorTypes, "profiles": p.Profiles, "tests": c.Tests,
			"models": c.Models, "lint": c.Lint, "a2a": c.A2A, "runtimes": c.Runtimes,
		})
	}
	sa, sb := side(a), side(b)
	if sa == nil || sb == nil {
		return nil
	}
	var out []Change
	for _, k := range model.Sorted(sa) {
		out = append(out, Values([]string{k}, sa[k], sb[k])...)
	}
	for i := range out {
		ClassifyDeclaration(&out[i])
	}
	return out
}

// toJSON converts a model value to its JSON object form (nil if it cannot
// be encoded, which the model's types rule out).
func toJSON(v any) map[string]any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	return m
}
