package lint

import (
	"slices"
	"strings"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/render/template"
)

var unfilledPlaceholder = &Rule{
	ID:       "unfilled-placeholder",
	Severity: diag.Warning,
	Summary:  "a {placeholder} in text that is copied literally, so it is never filled",
	Doc: doc(`Only an agent type's system_prompt is a template: option texts, behavior instructions, tool descriptions, personality texts and rule messages are copied into the prompt (or shown to the model) literally, so a {user_name} there reaches the model as the text "{user_name}". This rule flags, in those fields, a {name} that is a runtime variable some agent type declares or a compile-time value ({agent.name}, ...). Move the sentence into the system_prompt, or say it without the placeholder. (An undeclared placeholder in a system_prompt is the compiler's error "placeholder".)`,
		`categories: communication: settings: greeting: options: warm: text: "Greet {user_name} by name"`,
		`categories: communication: settings: greeting: options: warm: text: "Greet the user by name"`),
	Run: func(p *Pass) {
		known := map[string]bool{}
		for _, n := range compiler.CompileTimeNames {
			known[n] = true
		}
		for _, t := range p.Config.AgentTypes {
			for v := range t.Variables {
				known[v] = true
			}
		}
		eachText(p.Config, func(path []string, kind textKind, text string) {
			if kind != promptText || !strings.Contains(text, "{") {
				return
			}
			var seen []string
			for _, name := range template.Scan(text) {
				if known[name] && !slices.Contains(seen, name) {
					seen = append(seen, name)
					p.Reportf(path, "{%s} is copied into the prompt literally, not filled in: only an agent type's system_prompt is a template; move the sentence there or drop the placeholder", name)
				}
			}
		})
	},
}
