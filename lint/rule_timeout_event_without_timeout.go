package lint

import (
	"slices"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/output/diag"
)

var timeoutEventWithoutTimeout = &Rule{
	ID:       "timeout-event-without-timeout",
	Severity: diag.Warning,
	Summary:  "an agent's behavior acts on a timeout, and the agent has no timeout",
	Doc: doc(`A behavior that handles the on_timeout event, or inserts a context block when: "timeout", acts when the agent's run is out of time: the agent's timeout (seconds), its own or its type's. An agent without one never times out, so the behavior never does what it is there for. Set timeout on the agent or its type, or leave the behavior out.`,
		`behaviorTypes: WrapUpBehavior: {kind: "utility", events: ["on_timeout"]}
agents: ann: {type: "personal_assistant", behaviors: [{type: "WrapUpBehavior"}]}`,
		`behaviorTypes: WrapUpBehavior: {kind: "utility", events: ["on_timeout"]}
agents: ann: {type: "personal_assistant", timeout: 600, behaviors: [{type: "WrapUpBehavior"}]}`),
	Run: func(p *Pass) {
		for _, a := range p.Program.Agents {
			if a.Decl.Timeout > 0 {
				continue
			}
			for _, b := range a.Behaviors {
				what := ""
				switch {
				case slices.Contains(b.Events, "on_timeout"):
					what = "handles on_timeout"
				case slices.ContainsFunc(b.Context, func(c compiler.Injection) bool { return c.When == "timeout" }):
					what = `inserts a context block when: "timeout"`
				default:
					continue
				}
				p.Reportf([]string{"agents", a.ID, "behaviors", index(b.Index)},
					"%s %s, but %s has no timeout, so it never times out and the behavior never acts on it: set timeout (seconds) on %s or its agent type", b.Type, what, a.ID, a.ID)
			}
		}
	},
}
