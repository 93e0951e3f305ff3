package export

import (
	"fmt"

	"github.com/charter-dev/charter/compiler"
)

// agentDefinition is the Claude Agent SDK's AgentDefinition (sdk.d.ts of
// @anthropic-ai/claude-agent-sdk 0.3.332), the fields charter fills.
type agentDefinition struct {
	Description     string   `json:"description"`
	Tools           []string `json:"tools"`
	DisallowedTools []string `json:"disallowedTools,omitempty"`
	Prompt          string   `json:"prompt"`
	Model           string   `json:"model,omitempty"`
	MaxTurns        int      `json:"maxTurns,omitempty"`
}

// agentSDK writes NAME.json per agent: the AgentDefinition to put in
// options.agents under NAME (the subagent's Claude Code name).
func agentSDK(p *compiler.Program, agents []Agent, o Options) (Result, error) {
	ns, err := names(agents, "the Claude Agent SDK", claudeName)
	if err != nil {
		return Result{}, err
	}
	var r Result
	for i, a := range agents {
		m, err := mapTools(p, a.Agent, "Claude Code", Runtime, o)
		if err != nil {
			return Result{}, err
		}
		mdl, err := modelName(p, a.Agent, "Claude Code", Runtime)
		if err != nil {
			return Result{}, err
		}
		d := agentDefinition{Description: a.Description, Tools: m.Names, DisallowedTools: m.Denied, Prompt: a.Prompt, Model: mdl, MaxTurns: a.Decl.MaxTurns}
		if d.Tools == nil {
			// Omitted, the SDK gives the subagent every tool.
			d.Tools = []string{}
		}
		r.Notes = append(r.Notes, m.note(a.ID, "Claude Code", Runtime)...)
		r.Notes = append(r.Notes, timeoutNote(a.Agent, "an AgentDefinition")...)
		b, err := pretty(d)
		if err != nil {
			return Result{}, fmt.Errorf("agent %s: %v", a.ID, err)
		}
		r.Files = append(r.Files, File{Path: ns[i] + ".json", Data: b})
	}
	r.Notes = append(r.Notes, "the Claude Agent SDK's AgentDefinition has no hooks, so charter's rules are not carried: add charter eval --protocol claude-code as a PreToolUse hook (Options.hooks, or settingSources: ['project'] with the claude-code export's settings.json); see docs/export.md")
	return r, nil
}
