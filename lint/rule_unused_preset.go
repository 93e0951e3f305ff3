package lint

import (
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
)

var unusedPreset = &Rule{
	ID:       "unused-preset",
	Severity: diag.Info,
	Summary:  "a preset declared in your files that no agent type or agent uses",
	Doc: doc(`A preset only matters when an agent type or an agent lists it under presets. One that none lists is dead configuration; often an agent was meant to use it and names another. Use it, or remove it. The standard library's presets are not reported.`,
		`presets: careful: behavior: approval: email_send: "require_approval"
agents: ann: presets: ["conservative"]`,
		`presets: careful: behavior: approval: email_send: "require_approval"
agents: ann: presets: ["careful"]`),
	Run: func(p *Pass) {
		// The candidates are few (the user's presets); the agents many:
		// the scan stops once every candidate is used, and an editor
		// runs this rule over every agent after each edit.
		cfg := p.Config
		unused := map[string]bool{}
		for n := range cfg.Presets {
			if !cfg.Builtin["presets."+n] {
				unused[n] = true
			}
		}
		for _, t := range cfg.AgentTypes {
			for _, n := range t.Presets {
				delete(unused, n)
			}
		}
		for _, a := range cfg.Agents {
			if len(unused) == 0 {
				break
			}
			for _, n := range a.Presets {
				delete(unused, n)
			}
		}
		for _, n := range model.Sorted(unused) {
			p.Reportf([]string{"presets", n}, "preset %s is used by no agent type or agent: list it under presets where it applies, or remove it", n)
		}
	},
}

var unusedAgentType = &Rule{
	ID:       "unused-agent-type",
	Severity: diag.Info,
	Summary:  "an agent type declared in your files that no agent uses",
	Doc: doc(`An agent type becomes a prompt only through the agents of that type. A type no agent uses is never compiled into the bundle, so its template and behavior go unchecked by anyone reading the output. Give an agent the type, or remove it. The standard library's types are not reported.`,
		`agentTypes: triage: {name: "Triage", system_prompt: "You sort tickets."}
agents: ann: type: "support"`,
		`agentTypes: triage: {name: "Triage", system_prompt: "You sort tickets."}
agents: ann: type: "triage"`),
	Run: func(p *Pass) {
		cfg := p.Config
		unused := map[string]bool{}
		for n := range cfg.AgentTypes {
			if !cfg.Builtin["agentTypes."+n] {
				unused[n] = true
			}
		}
		for _, a := range cfg.Agents {
			if len(unused) == 0 {
				break
			}
			delete(unused, a.Type)
		}
		for _, n := range model.Sorted(unused) {
			p.Reportf([]string{"agentTypes", n}, "agent type %s is used by no agent: give an agent this type, or remove it", n)
		}
	},
}
