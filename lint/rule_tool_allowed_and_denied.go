package lint

import (
	"slices"

	"github.com/charter-dev/charter/internal/output/diag"
)

var toolAllowedAndDenied = &Rule{
	ID:       "tool-allowed-and-denied",
	Severity: diag.Error,
	Summary:  "a tool is both allowed and denied",
	Doc: doc(`A tool in both tools.allowed and tools.denied of one agent leaves its access up to whichever list a runtime reads last. Decide, and keep the tool in one list only.`,
		`agents: ana: tools: {
	allowed: ["read_file", "write_file"]
	denied: ["write_file"]
}`,
		`agents: ana: tools: {
	allowed: ["read_file"]
	denied: ["write_file"]
}`),
	Run: func(p *Pass) {
		for _, a := range p.Program.Agents {
			perms := a.Decl.Tools
			if len(perms.Allowed) == 0 || len(perms.Denied) == 0 {
				continue
			}
			for i, name := range perms.Denied {
				if slices.Contains(perms.Allowed, name) {
					p.Reportf([]string{"agents", a.ID, "tools", "denied", index(i)},
						"tool %q is both allowed and denied: keep it in one of tools.allowed and tools.denied", name)
				}
			}
		}
	},
}
