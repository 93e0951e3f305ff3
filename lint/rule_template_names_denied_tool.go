package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/output/diag"
)

var templateNamesDeniedTool = &Rule{
	ID:       "template-names-denied-tool",
	Severity: diag.Error,
	Summary:  "an agent type's system_prompt tells an agent of the type to use a tool the agent is denied",
	Doc: doc(`An agent type's system_prompt is every agent's of the type. When it names a tool that an agent's tools.denied, tools.allowed or access_level takes away, that agent's prompt tells it to make a call eval and the Claude Code hook block. The finding is at the template, naming the agents; for a built-in type, whose template a repository cannot change, it is at the agent's declaration that takes the tool away. Give the agent a type whose template does not name the tool, or stop denying it.`,
		`agentTypes: briefer: {name: "Briefer", system_prompt: "Read the calendar with list_events and cancel with delete_event."}
agents: wren: {
	name: "Wren"
	type: "briefer"
	behaviors: [{type: "CalendarToolsBehavior"}]
	tools: denied: ["delete_event"]
}`,
		`agentTypes: briefer: {name: "Briefer", system_prompt: "Read the calendar with list_events."}
agents: wren: {
	name: "Wren"
	type: "briefer"
	behaviors: [{type: "CalendarToolsBehavior"}]
	tools: denied: ["delete_event"]
}`),
	Run: func(p *Pass) {
		type key struct{ agentType, tool string }
		var keys []key
		agents := map[key][]string{}
		for _, a := range p.Program.Agents {
			if a.Type == nil {
				continue
			}
			for _, tool := range deniedNames(a) {
				if !namesTool(a.Type.SystemPrompt, tool) {
					continue
				}
				if p.Program.Config.Builtin["agentTypes."+a.Decl.Type] {
					path, why := denialPath(a, tool)
					p.Reportf(path, "the built-in agent type %s's system_prompt tells %s to use %s, which %s is denied (%s): give %s an agent type of your own whose template does not name it (it may list {agent.tools}, the tools the agent may call), or stop denying it",
						a.Decl.Type, a.ID, tool, a.ID, why, a.ID)
					continue
				}
				k := key{a.Decl.Type, tool}
				if _, ok := agents[k]; !ok {
					keys = append(keys, k)
				}
				agents[k] = append(agents[k], a.ID)
			}
		}
		for _, k := range keys {
			ids := agents[k]
			slices.Sort(ids)
			who, whom := ids[0], ids[0]
			if len(ids) > 1 {
				who, whom = fmt.Sprintf("%d of its agents (%s)", len(ids), abbreviateList(ids, 5)), "they"
			}
			p.Reportf([]string{"agentTypes", k.agentType, "system_prompt"}, "the template tells %s to use %s, which %s %s denied: drop the tool from the template (it may list {agent.tools}, the tools each agent may call), or give %s a type of its own",
				who, k.tool, whom, isAre(len(ids)), who)
		}
	},
}

// namesTool reports whether text names tool as a tool: a name with an
// underscore or a capital (delete_event, WebFetch) anywhere as a word; a
// plain word (book, send, search), which prose uses too, only as an item
// of a list (after a colon or a comma, or before a comma): "Email: send,
// check_replies".
func namesTool(text, tool string) bool {
	if strings.ContainsAny(tool, "_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") {
		return mentions(text, tool)
	}
	for i := 0; ; {
		k := strings.Index(text[i:], tool)
		if k < 0 {
			return false
		}
		j := i + k
		end := j + len(tool)
		word := (j == 0 || !isWordByte(text[j-1])) && (end == len(text) || !isWordByte(text[end]))
		before := strings.TrimRight(text[:j], " \t")
		after := strings.TrimLeft(text[end:], " \t")
		if word && (strings.HasSuffix(before, ":") || strings.HasSuffix(before, ",") || strings.HasPrefix(after, ",")) {
			return true
		}
		i = j + 1
	}
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// deniedNames are the tools the agent may not call that its declarations
// name: those its behaviors provide and it is denied, and those its
// tools.denied takes away though no behavior provides them.
func deniedNames(a *compiler.Agent) []string {
	var out []string
	for _, e := range a.Excluded {
		out = append(out, e.Name)
	}
	for _, d := range a.DeniedTools {
		if !slices.Contains(out, d.Name) {
			out = append(out, d.Name)
		}
	}
	return out
}

// denialPath is where the agent's declaration that takes tool away is,
// and why in words.
func denialPath(a *compiler.Agent, tool string) ([]string, string) {
	if ex, ok := a.ExclusionOf(tool); ok {
		owner := []string{"agents", a.ID}
		if ex.FromType {
			owner = []string{"agentTypes", a.Decl.Type}
		}
		path := append(owner, "tools", ex.By[len("tools."):])
		if ex.By == "tools.denied" {
			if i := slices.Index(a.Decl.Tools.Denied, tool); i >= 0 {
				path = append(path, index(i))
			}
		}
		return path, ex.Reason
	}
	path := []string{"agents", a.ID, "tools", "denied"}
	for _, d := range a.DeniedTools {
		if d.Name == tool {
			entry := tool
			if d.Group != "" {
				entry = d.Group
			}
			if i := slices.Index(a.Decl.Tools.Denied, entry); i >= 0 {
				path = append(path, index(i))
			}
			if d.Group != "" {
				return path, fmt.Sprintf("tools.denied names %s, a tool group that holds %s", d.Group, tool)
			}
		}
	}
	return path, "tools.denied names " + tool
}
