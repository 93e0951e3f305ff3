package bundle

import (
	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/canonjson"
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
	b, err := canonjson.Canonical(src)
	if err != nil {
		return nil, err
	}
	return canonjson.InsertMember(obj, ToolsDeclaredAtKey, b), nil
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
	canon, err = withSources(canonjson.InsertMember(canon, "content_hash", canonjson.AppendString(nil, hash)), a)
	if err != nil {
		return nil, err
	}
	return canonjson.Indent(canon), nil
}

// ReadGate reads what the agent of an agent.json may call, for the rule
// engine: rules.ReadGate, which runtimes outside charter call too.
func ReadGate(agentJSON []byte, runtime string) (*rules.Gate, error) {
	return rules.ReadGate(agentJSON, runtime)
}
