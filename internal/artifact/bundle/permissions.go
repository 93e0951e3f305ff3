package bundle

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/rules"
)

// ToolsDeclaredAtKey is the member of agent.json that says where the
// agent's tools.allowed, tools.denied and tools.access_level are declared
// (field -> file:line:col), for eval's messages. It is not part of the
// content hash: moving a line makes no new version.
const ToolsDeclaredAtKey = "tools_declared_at"

// withSources adds ToolsDeclaredAtKey to the canonical agent.json obj.
func withSources(obj []byte, a *compiler.Agent) ([]byte, error) {
	src := map[string]string{}
	for field, p := range a.ToolsDeclaredAt {
		if s := p.String(); s != "" {
			src[field] = s
		}
	}
	if len(src) == 0 {
		return obj, nil
	}
	b, err := Canonical(src)
	if err != nil {
		return nil, err
	}
	return insertMember(obj, ToolsDeclaredAtKey, b), nil
}

// AgentFile returns agent.json as build writes it.
func AgentFile(prompt string, a *compiler.Agent) ([]byte, error) {
	doc, err := AgentJSON(a, prompt)
	if err != nil {
		return nil, err
	}
	canon, hash, err := canonicalHash(doc)
	if err != nil {
		return nil, err
	}
	canon, err = withSources(insertMember(canon, "content_hash", appendString(nil, hash)), a)
	if err != nil {
		return nil, err
	}
	return indent(canon), nil
}

// ReadGate reads what the agent of an agent.json may call, for the rule
// engine (rules.Engine.SetGate). runtime names the runtime whose tool
// names calls carry ("claude-code"); "" accepts every runtime's.
func ReadGate(agentJSON []byte, runtime string) (*rules.Gate, error) {
	var doc struct {
		ID           string                       `json:"id"`
		Excluded     []compiler.Exclusion         `json:"excluded_tools"`
		Restricted   bool                         `json:"tools_restricted"`
		RuntimeTools map[string]map[string]string `json:"runtime_tools"`
		DeclaredAt   map[string]string            `json:"tools_declared_at"`
		Tools        struct {
			AccessLevel string   `json:"access_level"`
			Denied      []string `json:"denied"`
		} `json:"tools"`
		Provided []json.RawMessage `json:"provided_tools"`
	}
	if err := json.Unmarshal(agentJSON, &doc); err != nil {
		return nil, err
	}
	var eff struct {
		Tools *[]string `json:"effective_tools"`
	}
	if err := json.Unmarshal(agentJSON, &eff); err != nil {
		return nil, err
	}
	if eff.Tools == nil {
		return nil, fmt.Errorf("agent %s has no effective_tools: the bundle was built by an older charter; build it again", doc.ID)
	}
	at := func(field string) string {
		if p := doc.DeclaredAt[field]; p != "" {
			return field + " at " + p
		}
		return field
	}
	g := &rules.Gate{Agent: doc.ID, Tools: *eff.Tools, Excluded: map[string]string{}, Restricted: doc.Restricted, Runtime: runtime, Names: map[string]string{}, NameRuntime: map[string]string{},
		Declared: len(doc.Provided) > 0 || doc.Tools.AccessLevel != "" || doc.Tools.Denied != nil}
	for _, e := range doc.Excluded {
		g.Excluded[e.Name] = fmt.Sprintf("%s (%s)", e.Reason, at(e.By))
	}
	// A denied tool no behavior provides is in no exclusion, and still
	// denied: without this an agent with no allow-list called it.
	for _, t := range doc.Tools.Denied {
		if g.Excluded[t] == "" && !slices.Contains(g.Tools, t) {
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
