package lint

import (
	"maps"
	"slices"

	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
)

var runtimeToolUnknown = &Rule{
	ID:       "runtime-tool-unknown",
	Severity: diag.Warning,
	Summary:  "a runtime's tool name is mapped to a tool charter does not know",
	Doc: doc(`The runtimes table maps a runtime's name for a tool (Claude Code's Edit, an MCP server's mcp__github__create_issue) to charter's tool. eval and the Claude Code hook judge a call by the charter tool: mapped to a name no behavior type provides and no tool family lists, usually a misspelling, every call by that name is blocked for agents that list their tools ("none of its behaviors provides it"), and export never writes the name. The message names the closest tool. Fix the tool's name, or add the behavior type that provides it.`,
		`runtimes: "claude-code": tools: mcp__github__create_issue: "create_isue"`,
		`runtimes: "claude-code": tools: mcp__github__create_issue: "create_issue"`),
	Run: func(p *Pass) {
		known := p.KnownTools()
		for _, rt := range model.Sorted(p.Config.Runtimes) {
			names := p.Config.Runtimes[rt].Tools
			for _, name := range model.Sorted(names) {
				tool := names[name]
				if known[tool] {
					continue
				}
				path := []string{"runtimes", rt, "tools", name}
				if p.Builtin(path...) {
					continue // the standard library's names for tools a user may add
				}
				p.Reportf(path, "%s is mapped to tool %q, which no behavior type provides and no tool family lists, so every %s call is judged as a call to an unknown tool%s",
					name, tool, name, didYouMean(tool, slices.Sorted(maps.Keys(known))))
			}
		}
	},
}
