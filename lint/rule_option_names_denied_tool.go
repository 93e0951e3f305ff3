package lint

import (
	"github.com/charter-dev/charter/internal/output/diag"
)

var optionNamesDeniedTool = &Rule{
	ID:       "option-names-denied-tool",
	Severity: diag.Error,
	Summary:  "a chosen option's prompt sentence tells the agent to use a tool it is denied",
	Doc: doc(`Each option of a behavior category stands for a sentence of the prompt. When the option an agent ends up with (its own choice, its type's, a preset's, or the default) names a tool the agent may not call, the prompt asks for a call eval and the Claude Code hook block. The finding is at the choice that won (charter why AGENT behavior.CATEGORY.SETTING shows every layer). Choose another option for the agent, or stop denying the tool.`,
		`categories: reports: {title: "REPORTS", settings: delivery: {line: "- {text}", default: "email", options: {
	email: text: "Send every report with send_email"
	file: text: "Write every report to a file"
}}}
agents: wren: {
	name: "Wren"
	type: "personal_assistant"
	behavior: reports: delivery: "email"
	tools: denied: ["send_email"]
}`,
		`categories: reports: {title: "REPORTS", settings: delivery: {line: "- {text}", default: "email", options: {
	email: text: "Send every report with send_email"
	file: text: "Write every report to a file"
}}}
agents: wren: {
	name: "Wren"
	type: "personal_assistant"
	behavior: reports: delivery: "file"
	tools: denied: ["send_email"]
}`),
	Run: func(p *Pass) {
		for _, a := range p.Program.Agents {
			denied := deniedNames(a)
			if len(denied) == 0 {
				continue
			}
			for _, c := range a.Behavior {
				for _, s := range c.Settings {
					for _, tool := range denied {
						if s.Text == "" || !namesTool(s.Text, tool) {
							continue
						}
						path := s.Origin.Labels()
						if s.Origin.Layer == "default" || p.Builtin(path...) {
							path = []string{"agents", a.ID, "behavior", c.Name, s.Name}
						}
						p.Reportf(path, "%s's prompt line for %s.%s (%s, from %s) tells it to use %s, which it is denied: choose another option for %s, or stop denying %s",
							a.ID, c.Name, s.Name, s.Value, p.Program.Describe(s.Origin), tool, a.ID, tool)
					}
				}
			}
		}
	},
}
