package lint

import (
	"maps"
	"slices"

	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
)

var toolPermissionUnprovided = &Rule{
	ID:       "tool-permission-unprovided",
	Severity: diag.Warning,
	Summary:  "tools.allowed or tools.denied names a tool the agent's behaviors do not provide",
	Doc: doc(`An agent's tools come from its behaviors; tools.allowed and tools.denied narrow them. A name in either list that none of the agent's behaviors provides gates nothing: usually a misspelling (the denial then silently fails to deny) or a behavior that was removed. For an agent without behaviors the names are checked against every tool any behavior type provides or any tool family lists. The message names the closest tool. Fix the name or add the behavior that provides the tool.`,
		`agents: ana: {
	behaviors: [{type: "FileToolsBehavior"}]
	tools: denied: ["write_files"]
}`,
		`agents: ana: {
	behaviors: [{type: "FileToolsBehavior"}]
	tools: denied: ["write_file"]
}`),
	Run: func(p *Pass) {
		known := p.KnownTools()
		for _, a := range p.Program.Agents {
			perms := a.Decl.Tools
			if len(perms.Allowed) == 0 && len(perms.Denied) == 0 {
				continue
			}
			for _, list := range []struct {
				field string
				names []string
			}{{"allowed", perms.Allowed}, {"denied", perms.Denied}} {
				for i, name := range list.names {
					path := []string{"agents", a.ID, "tools", list.field, index(i)}
					if len(a.Decl.Behaviors) == 0 {
						if !known[name] {
							p.Reportf(path, "tool %q is provided by no behavior type and listed in no tool family, so this entry gates nothing%s", name, didYouMean(name, slices.Sorted(maps.Keys(known))))
						}
						continue
					}
					if !provides(a, name) {
						p.Reportf(path, "tool %q is not provided by any of the agent's behaviors, so this entry gates nothing%s; its tools are: %s", name, didYouMean(name, toolNames(a)), model.NameList(slices.Sorted(slices.Values(toolNames(a)))))
					}
				}
			}
		}
	},
}
