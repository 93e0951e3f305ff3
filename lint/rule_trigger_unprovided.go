package lint

import (
	"strings"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
)

var triggerUnprovided = &Rule{
	ID:       "trigger-unprovided",
	Severity: diag.Warning,
	Summary:  "a profile rule triggers on tools that no agent using the profile has",
	Doc: doc(`A profile rule fires on calls to the tools its trigger names (a tool, or a family's tools). If none of the agents that use the profile (directly, or through a profile that extends it) gets any of those tools from its behaviors, the rule can never fire for them: a dead rule that reviewers will trust. Only rules declared in your files are checked, and only agents that declare behaviors (an agent without behaviors gets its tools from elsewhere). Give the agents a behavior that provides the tool, or fix the trigger.`,
		`profiles: ops: rules: no_prod_deploys: {trigger: "deploy", action: "block", message: "No deploys."}
agents: ana: {profile: "ops", behaviors: [{type: "FileToolsBehavior"}]}`,
		`profiles: ops: rules: no_prod_deploys: {trigger: "deploy", action: "block", message: "No deploys."}
agents: ana: {profile: "ops", behaviors: [{type: "FileToolsBehavior"}, {type: "DeployBehavior"}]}`),
	Run: func(p *Pass) {
		// The agents with behaviors that use each flattened profile.
		users := map[string][]*compiler.Agent{}
		for _, a := range p.Program.Agents {
			if a.Profile != nil && len(a.Decl.Behaviors) > 0 {
				users[a.Profile.Name] = append(users[a.Profile.Name], a)
			}
		}
		// A rule declared once may reach agents through several profiles
		// that extend it: judge it once, over all of them.
		type key struct{ profile, rule string }
		type verdict struct {
			fired   bool
			trigger string
			tools   []string
			agents  []string
		}
		verdicts := map[key]*verdict{}
		var order []key
		provided := map[string]map[string]bool{} // profile -> the tools its users get
		known := p.KnownTools()
		for _, pn := range model.Sorted(users) {
			flat := p.Program.Profiles[pn]
			for _, r := range flat.Rules {
				tools, ok := triggerTools(flat, r.Trigger)
				if !r.Enabled || !ok {
					continue
				}
				if _, fam := flat.ToolFamilies[r.Trigger]; !fam && r.Trigger != "*" && !known[r.Trigger] {
					// A name no family and no tool has: trigger-unknown
					// says so, with the closest name, once.
					continue
				}
				k := key{triggerDecl(p, pn, r.ID), r.ID}
				v := verdicts[k]
				if v == nil {
					v = &verdict{trigger: r.Trigger, tools: tools}
					verdicts[k] = v
					order = append(order, k)
				}
				if v.fired {
					continue
				}
				for _, a := range users[pn] {
					if len(v.agents) == 4 {
						break
					}
					v.agents = append(v.agents, a.ID)
				}
				// The tools every user gets, once a profile: a profile's
				// rules are many, its users thousands (an editor runs this
				// rule over every agent after each edit).
				got := provided[pn]
				if got == nil {
					got = map[string]bool{}
					for _, a := range users[pn] {
						for _, t := range a.Tools {
							got[t.Name] = true
						}
					}
					provided[pn] = got
				}
				for _, t := range tools {
					if got[t] {
						v.fired = true
					}
				}
			}
		}
		for _, k := range order {
			v := verdicts[k]
			path := []string{"profiles", k.profile, "rules", k.rule, "trigger"}
			if v.fired || p.Builtin(path...) {
				continue
			}
			if len(v.agents) > 3 {
				v.agents = append(v.agents[:3], "...")
			}
			p.Reportf(path, "rule %s triggers on %s (%s), which no behavior of the agents using it (%s) provides, so it never fires: add a behavior that provides it, or fix the trigger",
				k.rule, v.trigger, strings.Join(v.tools, ", "), strings.Join(v.agents, ", "))
		}
	},
}
