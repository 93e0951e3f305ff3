package lint

import (
	"github.com/charter-dev/charter/internal/output/diag"
)

var multipleContextBehaviors = &Rule{
	ID:       "multiple-context-behaviors",
	Severity: diag.Warning,
	Summary:  "an agent has more than one context behavior, or the same behavior twice",
	Doc: doc(`A behavior of kind context decides how the conversation is kept and compacted (hierarchical, compact when near full, sub-agent, ...); two of them fight over the same messages, and the runtime applies whichever runs last. The same behavior type attached twice adds its instructions twice. Keep one context behavior, and each behavior type once.`,
		`agents: ana: behaviors: [
	{type: "HierarchicalContextBehavior"},
	{type: "CompactWhenNearFullBehavior"},
]`,
		`agents: ana: behaviors: [
	{type: "HierarchicalContextBehavior"},
]`),
	Run: func(p *Pass) {
		for _, a := range p.Program.Agents {
			if len(a.Behaviors) < 2 {
				continue
			}
			first := ""
			seen := map[string]bool{}
			for _, b := range a.Behaviors {
				path := []string{"agents", a.ID, "behaviors", index(b.Index)}
				switch {
				case seen[b.Type]:
					p.Reportf(path, "behavior %s is attached twice: keep one", b.Type)
					continue
				case b.Kind == "context" && first != "":
					p.Reportf(path, "%s is a second context behavior after %s; they would both manage the conversation: keep one", b.Type, first)
				case b.Kind == "context":
					first = b.Type
				}
				seen[b.Type] = true
			}
		}
	},
}
