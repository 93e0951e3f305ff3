package lint

import (
	"slices"
	"strings"

	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/render/template"
)

var behaviorPlaceholderUnfilled = &Rule{
	ID:       "behavior-placeholder-unfilled",
	Severity: diag.Error,
	Summary:  "a {placeholder} in a behavior's instructions that names none of its parameters",
	Doc: doc(`A behavior's instructions, and its tools', go into the prompt with each {param} replaced by the value the agent gives the behavior's parameter ("Only these programs may run: {whitelist}"). A {name} that is none of the behavior type's parameters is not filled: it reaches the model as the text "{name}". Declare the parameter, fix the name, or say it without the placeholder.`,
		`behaviorTypes: TicketBehavior: {
	kind: "tools"
	instructions: "File tickets in the {queu} queue."
	params: queue: {type: "string", default: "support"}
}`,
		`behaviorTypes: TicketBehavior: {
	kind: "tools"
	instructions: "File tickets in the {queue} queue."
	params: queue: {type: "string", default: "support"}
}`),
	Run: func(p *Pass) {
		eachText(p.Config, func(path []string, kind textKind, text string) {
			if kind != instructionText || !strings.Contains(text, "{") {
				return
			}
			bt := p.Config.BehaviorTypes[path[1]]
			var seen []string
			for _, name := range template.Scan(text) {
				if _, ok := bt.Params[name]; ok || slices.Contains(seen, name) {
					continue
				}
				seen = append(seen, name)
				params := make([]string, 0, len(bt.Params))
				for n := range bt.Params {
					params = append(params, n)
				}
				slices.Sort(params)
				p.ReportNamef(path, name, params, "{%s} names no parameter of %s, so it reaches the prompt as the text {%s}%s", name, path[1], name, didYouMean(name, params))
			}
		})
	},
}
