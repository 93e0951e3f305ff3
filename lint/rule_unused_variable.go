package lint

import (
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/render/template"
)

var unusedVariable = &Rule{
	ID:       "unused-variable",
	Severity: diag.Warning,
	Summary:  "a declared runtime variable that the agent type's template never uses",
	Doc: doc(`An agent type declares the runtime variables its system_prompt needs; the host must supply every required one at start-up. A variable the template never uses costs the host work for nothing (and a required one makes start-up fail without it), and is often a sign of a misspelt placeholder. Use it in the system_prompt as {name}, or remove the declaration.`,
		`agentTypes: support: {
	system_prompt: "You are {agent.name}. You are talking with {user_name}."
	variables: {
		user_name: required: true
		user_timezone: required: false // used nowhere
	}
}`,
		`agentTypes: support: {
	system_prompt: "You are {agent.name}. You are talking with {user_name} ({user_timezone})."
	variables: {
		user_name: required: true
		user_timezone: required: false
	}
}`),
	Run: func(p *Pass) {
		for _, slug := range model.Sorted(p.Config.AgentTypes) {
			t := p.Config.AgentTypes[slug]
			if len(t.Variables) == 0 {
				continue
			}
			tmpl, err := template.Parse(t.SystemPrompt)
			if err != nil {
				continue // the compiler's error
			}
			used := map[string]bool{}
			for _, ph := range tmpl.Placeholders() {
				used[ph.Name] = true
			}
			for _, name := range model.Sorted(t.Variables) {
				if !used[name] {
					p.Reportf([]string{"agentTypes", slug, "variables", name},
						"runtime variable %s is declared but the system_prompt never uses it: write {%s} where it belongs, or remove the declaration", name, name)
				}
			}
		}
	},
}
