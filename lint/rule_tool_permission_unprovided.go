package lint

import (
	"slices"

	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
)

var toolPermissionUnprovided = &Rule{
	ID:       "tool-permission-unprovided",
	Severity: diag.Warning,
	Summary:  "tools.allowed or tools.denied names a tool the agent's behaviors do not provide",
	Doc: doc(`An agent's tools come from its behaviors; tools.allowed and tools.denied narrow them. A tool in either list that none of the agent's behaviors provides gates nothing for that agent: usually a behavior that was removed, or the tool of another behavior than the one meant. (A name that is no tool and no tool group at all is validate's error; an entry that names a tool group gates what the group holds, and is not checked here.) The message names the closest of the agent's tools. Fix the name or add the behavior that provides the tool.`,
		`agents: ana: {
	behaviors: [{type: "FileToolsBehavior"}]
	tools: denied: ["create_file"]
}`,
		`agents: ana: {
	behaviors: [{type: "FileToolsBehavior"}]
	tools: denied: ["write_file"]
}`),
	Run: func(p *Pass) {
		for _, a := range p.Program.Agents {
			perms := a.Decl.Tools
			if len(a.Decl.Behaviors) == 0 || len(perms.Allowed) == 0 && len(perms.Denied) == 0 {
				continue
			}
			tools := toolNames(a)
			for _, list := range []struct {
				field string
				names []string
			}{{"allowed", perms.Allowed}, {"denied", perms.Denied}} {
				for i, name := range list.names {
					if _, group := p.Config.ToolGroups[name]; group || provides(a, name) {
						continue
					}
					p.ReportNamef([]string{"agents", a.ID, "tools", list.field, index(i)}, name, tools,
						"tool %q is not provided by any of the agent's behaviors, so this entry gates nothing%s; its tools are: %s", name, didYouMean(name, tools), model.NameList(slices.Sorted(slices.Values(tools))))
				}
			}
		}
	},
}
