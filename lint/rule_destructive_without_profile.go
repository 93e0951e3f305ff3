package lint

import (
	"strings"

	"github.com/charter-dev/charter/internal/output/diag"
)

var destructiveWithoutProfile = &Rule{
	ID:       "destructive-without-profile",
	Severity: diag.Warning,
	Summary:  "an agent has destructive tools but no rule profile",
	Doc: doc(`Tools marked destructive (write_file, run_bash, ...) delete or overwrite. When the agent may call one (tools.allowed, tools.denied and access_level decide) and has no profile, no rule watches the agent's calls: nothing blocks rm -rf or asks for confirmation. Give the agent a profile (dev at least: it blocks destructive commands without approval), or drop the behaviors that bring destructive tools.`,
		`agents: ana: behaviors: [{type: "CommandToolsBehavior"}]`,
		`agents: ana: {
	behaviors: [{type: "CommandToolsBehavior"}]
	profile: "dev"
}`),
	Run: func(p *Pass) {
		for _, a := range p.Program.Agents {
			if a.Decl.Profile != "" {
				continue
			}
			var destructive []string
			for _, t := range a.Effective { // a tool it may not call needs no guard
				if t.Destructive {
					destructive = append(destructive, t.Name)
				}
			}
			if len(destructive) > 0 {
				p.Reportf([]string{"agents", a.ID, "behaviors"},
					"the agent's behaviors bring destructive tools (%s) but it has no profile, so no rule guards them: set profile (e.g. \"dev\") or drop those behaviors",
					strings.Join(destructive, ", "))
			}
		}
	},
}
