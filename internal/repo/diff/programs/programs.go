// Package programs compares two compiled programs, declaration by
// declaration, with package diff. It is apart from diff so that diff's
// users that compare documents (history, the bundle's readers) do not pull
// in the compiler and the rule engine.
package programs

import (
	"bytes"
	"encoding/json"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/repo/diff"
)

// Compare compares two compiled programs: the resolved agents (or only
// agent only's), then, unless only is set, every other declaration.
func Compare(a, b *compiler.Program, only string) ([]diff.Change, error) {
	da, db, err := changedDocs(a, b, only)
	if err != nil {
		return nil, err
	}
	out := diff.Agents(da, db)
	if only == "" {
		out = append(out, declarationChanges(a, b)...)
	}
	return out, nil
}

// changedDocs returns the agent.json objects of the agents (or only the one
// named only) whose documents differ between a and b, by id. An agent
// whose document is the same on both sides has no changes, and is left
// out of both: most agents, in most diffs.
func changedDocs(a, b *compiler.Program, only string) (da, db map[string]map[string]any, err error) {
	ra, err := bundle.AgentJSONs(a, only)
	if err != nil {
		return nil, nil, err
	}
	rb, err := bundle.AgentJSONs(b, only)
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

// HasAgent reports whether prog declares agent id.
func HasAgent(prog *compiler.Program, id string) bool {
	_, ok := prog.Config.Agents[id]
	return ok
}

// declarationChanges diffs every declaration other than agents.
func declarationChanges(a, b *compiler.Program) []diff.Change {
	side := func(prog *compiler.Program) map[string]any {
		c := prog.Config
		return toJSON(map[string]any{
			"categories": c.Categories, "agentTypes": c.AgentTypes, "presets": c.Presets,
			"behaviorTypes": c.BehaviorTypes, "profiles": prog.Profiles, "tests": c.Tests,
			"models": c.Models, "lint": c.Lint, "a2a": c.A2A, "runtimes": c.Runtimes, "flows": c.Flows,
		})
	}
	sa, sb := side(a), side(b)
	if sa == nil || sb == nil {
		return nil
	}
	var out []diff.Change
	for _, k := range model.Sorted(sa) {
		out = append(out, diff.Values([]string{k}, sa[k], sb[k])...)
	}
	for i := range out {
		diff.ClassifyDeclaration(&out[i])
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
