package rules

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// ReadGate reads what the agent of an agent.json (as charter build writes
// it) may call, for Engine.SetGate. runtime names the runtime whose tool
// names calls carry ("claude-code"); "" accepts every runtime's. A runtime
// that imports this package reads the bundle's agent.json and enforces
// the agent's effective tools with it, as charter's own hook does.
func ReadGate(agentJSON []byte, runtime string) (*Gate, error) {
	var doc struct {
		ID       string `json:"id"`
		Excluded []struct {
			Name   string `json:"name"`
			By     string `json:"by"`
			Reason string `json:"reason"`
		} `json:"excluded_tools"`
		Denied []struct {
			Name  string `json:"name"`
			Group string `json:"group"`
		} `json:"denied_tools"`
		Effective    *[]string                    `json:"effective_tools"`
		Restricted   bool                         `json:"tools_restricted"`
		RuntimeTools map[string]map[string]string `json:"runtime_tools"`
		DeclaredAt   map[string]string            `json:"tools_declared_at"`
		Constraints  []Constraint                 `json:"tool_constraints"`
		Tools        struct {
			AccessLevel string   `json:"access_level"`
			Denied      []string `json:"denied"`
		} `json:"tools"`
		Provided  []json.RawMessage `json:"provided_tools"`
		Delegates *[]string         `json:"delegates_to"`
	}
	if err := json.Unmarshal(agentJSON, &doc); err != nil {
		return nil, fmt.Errorf("reading agent.json: %w", err)
	}
	if doc.Effective == nil {
		return nil, fmt.Errorf("agent %s has no effective_tools: the bundle was built by an older charter; build it again", doc.ID)
	}
	if doc.Delegates == nil {
		return nil, fmt.Errorf("agent %s has no delegates_to, so charter cannot tell whom it may start: the bundle was built by an older charter; build it again", doc.ID)
	}
	at := func(field string) string {
		if p := doc.DeclaredAt[field]; p != "" {
			return field + " at " + p
		}
		return field
	}
	g := &Gate{Agent: doc.ID, Tools: *doc.Effective, Excluded: map[string]string{}, Restricted: doc.Restricted, Runtime: runtime,
		Names: map[string]string{}, NameRuntime: map[string]string{}, Constraints: doc.Constraints, Delegates: *doc.Delegates,
		Declared: len(doc.Provided) > 0 || doc.Tools.AccessLevel != "" || doc.Tools.Denied != nil}
	for _, e := range doc.Excluded {
		g.Excluded[e.Name] = fmt.Sprintf("%s (%s)", e.Reason, at(e.By))
	}
	// A denied tool no behavior provides is in no exclusion, and still
	// denied: without this an agent with no allow-list called it.
	for _, d := range doc.Denied {
		if g.Excluded[d.Name] != "" || slices.Contains(g.Tools, d.Name) {
			continue
		}
		if d.Group != "" {
			g.Excluded[d.Name] = fmt.Sprintf("tools.denied names %s, a tool group that holds %s (%s)", d.Group, d.Name, at("tools.denied"))
		} else {
			g.Excluded[d.Name] = fmt.Sprintf("tools.denied names %s (%s)", d.Name, at("tools.denied"))
		}
	}
	for _, t := range doc.Tools.Denied {
		if g.Excluded[t] == "" && !slices.Contains(g.Tools, t) && doc.Denied == nil {
			g.Excluded[t] = fmt.Sprintf("tools.denied names %s (%s)", t, at("tools.denied"))
		}
	}
	if doc.Restricted {
		if _, ok := doc.DeclaredAt["tools.allowed"]; ok || doc.Tools.AccessLevel == "" {
			g.RestrictedBy = at("tools.allowed")
		} else {
			g.RestrictedBy = fmt.Sprintf("access level %s (%s)", doc.Tools.AccessLevel, at("tools.access_level"))
		}
	}
	for _, rt := range slices.Sorted(maps.Keys(doc.RuntimeTools)) {
		if runtime != "" && rt != runtime {
			continue
		}
		for name, tool := range doc.RuntimeTools[rt] {
			if _, dup := g.Names[name]; !dup {
				g.Names[name], g.NameRuntime[name] = tool, rt
			}
		}
	}
	return g, nil
}
