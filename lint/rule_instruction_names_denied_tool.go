package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charter-dev/charter/internal/output/diag"
)

var instructionNamesDeniedTool = &Rule{
	ID:       "instruction-names-denied-tool",
	Severity: diag.Error,
	Summary:  "a behavior's instructions tell the agent to use a tool it may not call",
	Doc: doc(`A behavior's instructions are free text that goes into the agent's prompt whole. When they name a tool that the agent's tools.denied, tools.allowed or access_level takes away, the prompt tells the agent to make a call it may not make: the tool is not in its TOOLS section, and eval and the Claude Code hook block the call. The finding is at the declaration that takes the tool away, and names the behavior. Give the agent a behavior whose instructions do not name the tool, or move the sentence into the tool's own instructions (behaviorTypes.NAME.tools.TOOL.instructions), which the prompt carries only for agents that may call the tool.`,
		`behaviorTypes: FilesBehavior: {
	kind: "tools"
	instructions: "Read with read_file and change files with write_file."
	tools: {read_file: description: "Read a file.", write_file: description: "Write a file."}
}
agents: ravi: {
	behaviors: [{type: "FilesBehavior"}]
	tools: denied: ["write_file"]
}`,
		`behaviorTypes: FilesBehavior: {
	kind: "tools"
	tools: {
		read_file: {description: "Read a file.", instructions: "Read with read_file."}
		write_file: {description: "Write a file.", instructions: "Change files with write_file."}
	}
}
agents: ravi: {
	behaviors: [{type: "FilesBehavior"}]
	tools: denied: ["write_file"]
}`),
	Run: func(p *Pass) {
		// A denial the agent's type declares is reported once at the
		// type, for all its agents the instructions reach.
		type atType struct{ path, tool, behavior, reason string }
		var typeKeys []atType
		typeAgents := map[atType][]string{}
		typePaths := map[atType][]string{}
		for _, a := range p.Program.Agents {
			for _, ex := range a.Excluded {
				field := ex.By[len("tools."):]
				owner := []string{"agents", a.ID}
				if ex.FromType {
					owner = []string{"agentTypes", a.Decl.Type}
				}
				path := append(owner, "tools", field)
				if ex.By == "tools.denied" {
					// The agent's list is its type's when it declares none.
					if i := slices.Index(a.Decl.Tools.Denied, ex.Name); i >= 0 {
						path = append(path, index(i))
					}
				}
				var by []string
				for _, b := range a.Behaviors {
					if mentions(b.Instructions, ex.Name) && !slices.Contains(by, b.Type) {
						by = append(by, b.Type)
					}
				}
				for _, t := range a.Effective {
					if mentions(t.Instructions, ex.Name) && !slices.Contains(by, t.Behavior) {
						by = append(by, t.Behavior)
					}
				}
				for _, b := range by {
					if owner[0] == "agentTypes" {
						k := atType{dotted(path), ex.Name, b, ex.Reason}
						if _, ok := typeAgents[k]; !ok {
							typeKeys = append(typeKeys, k)
							typePaths[k] = path
						}
						typeAgents[k] = append(typeAgents[k], a.ID)
						continue
					}
					p.Reportf(path, "behavior %s's instructions tell %s to use %s, which %s is denied (%s): give %s a behavior whose instructions do not name it, or move the sentence into the tool's own instructions (behaviorTypes.%s.tools.%s.instructions), which leave the prompt with the tool",
						b, a.ID, ex.Name, a.ID, ex.Reason, a.ID, ex.Behavior, ex.Name)
				}
			}
		}
		for _, k := range typeKeys {
			ids := typeAgents[k]
			slices.Sort(ids)
			who := ids[0]
			if len(ids) > 1 {
				who = fmt.Sprintf("%d agents of type %s (%s)", len(ids), typePaths[k][1], abbreviateList(ids, 5))
			}
			p.Reportf(typePaths[k], "behavior %s's instructions tell %s to use %s, which the agent type denies (%s): give them a behavior whose instructions do not name it, or move the sentence into the tool's own instructions (behaviorTypes.%s.tools.%s.instructions), which leave the prompt with the tool",
				k.behavior, who, k.tool, k.reason, k.behavior, k.tool)
		}
	},
}

// abbreviateList joins the first n of names and says how many more there
// are.
func abbreviateList(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}
