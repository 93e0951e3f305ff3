package lint

import (
	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/rules"
	"strings"
)

var blockInstructedTool = &Rule{
	ID:       "block-instructed-tool",
	Severity: diag.Warning,
	Summary:  "a profile rule blocks every call to a tool the agent's own behaviors tell it to use",
	Doc: doc(`When a behavior's instructions (added to the agent's prompt) tell the agent to use a tool and the agent's profile has an enabled rule that blocks every call to that tool (action block, no condition, trigger naming the tool, its family or "*"), the agent is told to do what it will never be allowed to do and wastes turns on blocked calls. Conditional blocks (a matches, contains, not_in or expr condition) are not flagged: blocking some calls of a tool is what profiles are for. Give the rule a condition, disable it for this profile (rules: ID: enabled: false), or drop the behavior.`,
		`profiles: readonly: rules: no_writes: {trigger: "write_file", action: "block", message: "Read only."}
agents: ana: {
	profile: "readonly"
	behaviors: [{type: "FileToolsBehavior"}] // "use write_file to change it"
}`,
		`profiles: readonly: rules: no_writes: {trigger: "write_file", action: "block", message: "Read only."}
agents: ana: {
	profile: "readonly"
	behaviors: [{type: "ReadOnlyFileToolsBehavior"}]
}`),
	Run: func(p *Pass) {
		for _, a := range p.Program.Agents {
			if a.Profile == nil || len(a.Behaviors) == 0 {
				continue
			}
			for _, r := range a.Profile.Rules {
				if !r.Enabled || r.Action != rules.Block || r.Condition != nil {
					continue
				}
				var tools []string
				if r.Trigger == "*" {
					tools = toolNames(a)
				} else {
					tools, _ = triggerTools(a.Profile, r.Trigger)
				}
				for _, t := range tools {
					if !provides(a, t) {
						continue
					}
					for _, b := range a.Behaviors {
						if mentions(b.Instructions, t) || toolInstructionsMention(a, b.Type, t) {
							p.Reportf([]string{"agents", a.ID, "profile"},
								"rule %s of profile %s blocks every call to %s, but the instructions of behavior %s tell the agent to use it: give the rule a condition, disable it for this agent's profile, or drop the behavior",
								r.ID, a.Profile.Name, t, b.Type)
							break
						}
					}
				}
			}
		}
	},
}

// mentions reports whether text names tool as a whole word.
func mentions(text, tool string) bool {
	for i := 0; ; {
		k := strings.Index(text[i:], tool)
		if k < 0 {
			return false
		}
		j := i + k
		end := j + len(tool)
		if (j == 0 || !isWordByte(text[j-1])) && (end == len(text) || !isWordByte(text[end])) {
			return true
		}
		i = j + 1
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// toolInstructionsMention reports whether the instructions of a tool the
// agent may call, which behavior bt brings, name tool.
func toolInstructionsMention(a *compiler.Agent, bt, tool string) bool {
	for _, et := range a.Effective {
		if et.Behavior == bt && mentions(et.Instructions, tool) {
			return true
		}
	}
	return false
}
