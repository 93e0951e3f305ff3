package validate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charter-dev/charter/internal/config/model"
)

// enforcement checks the declarations that say what an agent may do: the
// entries of tools.allowed and tools.denied (a tool or a tool group), the
// tool groups themselves, the names the authority fields use (an agent or
// a role), the parameters that restrict tools, and the options' order of
// strictness.
func (v *validator) enforcement() {
	c := v.res.Config
	known := v.knownTools()
	for _, name := range names(c.ToolGroups) {
		g := c.ToolGroups[name]
		p := Path{"toolGroups", name}
		for _, sub := range names(g.Groups) {
			if _, ok := c.ToolGroups[sub]; !ok {
				v.reportName("reference", p.Child("groups", sub), true, sub, names(c.ToolGroups), "unknown tool group %q%s", sub, didYouMean(sub, names(c.ToolGroups), "tool groups"))
			}
		}
		if known[name] && !g.Tools[name] {
			v.report("reference", p, "%q is a tool's name too: a group may share a tool's name only when it holds that tool (tools: %s: true), so that naming it in tools.allowed admits the tool it names", name, name)
		}
	}
	for _, slug := range names(c.AgentTypes) {
		if t := c.AgentTypes[slug]; t.Tools != nil {
			v.toolNames(Path{"agentTypes", slug, "tools"}, *t.Tools, known)
		}
	}
	for _, name := range names(c.Roles) {
		for i, m := range c.Roles[name].Members {
			if _, ok := c.Agents[m]; !ok && !v.res.Invalid["agents."+m] && !v.elsewhere[m] {
				v.reportName("reference", Path{"roles", name, "members", Index(i)}, false, m, names(c.Agents),
					"members names %q, which is no agent; a role's members are agent ids%s", m, didYouMean(m, names(c.Agents), "agents"))
			}
		}
	}
	for _, id := range names(c.Agents) {
		// Before applyTypeDefaults: the agent's own lists.
		a := c.Agents[id]
		v.toolNames(Path{"agents", id, "tools"}, a.Tools, known)
		v.authority(id, a.Authority, known)
	}
	for _, name := range names(c.BehaviorTypes) {
		bt := c.BehaviorTypes[name]
		for _, pname := range names(bt.Params) {
			v.restricts(Path{"behaviorTypes", name, "params", pname}, bt, bt.Params[pname])
		}
	}
	for _, name := range names(c.Categories) {
		for _, sname := range names(c.Categories[name].Settings) {
			s := c.Categories[name].Settings[sname]
			for i, o := range s.Strictness {
				p := Path{"categories", name, "settings", sname, "strictness", Index(i)}
				switch _, ok := s.Options[o]; {
				case !ok:
					v.reportName("reference", p, false, o, names(s.Options), "strictness names %q, which is not an option of %s.%s%s", o, name, sname, didYouMean(o, names(s.Options), "options"))
				case slices.Index(s.Strictness, o) < i:
					v.report("reference", p, "option %q is listed twice; list each option once, from the strictest to the loosest", o)
				}
			}
		}
	}
}

// knownTools are the names tools.allowed and tools.denied may use for a
// tool: every tool a behavior type provides, every tool a tool family or
// a tool group lists, and every name and tool of the runtimes' tables. (A
// family's own name is a trigger, not a tool.)
func (v *validator) knownTools() map[string]bool {
	c := v.res.Config
	known := map[string]bool{}
	for _, bt := range c.BehaviorTypes {
		for t := range bt.Tools {
			known[t] = true
		}
	}
	for _, p := range c.Profiles {
		for _, tools := range p.ToolFamilies {
			for _, t := range tools {
				known[t] = true
			}
		}
	}
	for _, rt := range c.Runtimes {
		for name, t := range rt.Tools {
			known[name], known[t] = true, true
		}
	}
	for _, g := range c.ToolGroups {
		for t := range g.Tools {
			known[t] = true
		}
	}
	return known
}

// toolNames checks that every entry of allowed and denied names a tool or
// a tool group: anything else would silently narrow (allowed) or deny
// nothing (denied).
func (v *validator) toolNames(p Path, t model.Tools, known map[string]bool) {
	c := v.res.Config
	candidates := append(names(c.ToolGroups), sortedKeys(known)...)
	for _, list := range []struct {
		field string
		names []string
	}{{"allowed", t.Allowed}, {"denied", t.Denied}} {
		for i, name := range list.names {
			if _, group := c.ToolGroups[name]; group || known[name] {
				continue
			}
			what := "admits nothing, and leaves out every tool it does not name"
			if list.field == "denied" {
				what = "denies nothing"
			}
			hint := didYouMean(name, candidates, "names")
			if _, close := closest(name, candidates); !close {
				hint = "; name a tool a behavior provides, or a tool group: " + strings.Join(names(c.ToolGroups), ", ")
			}
			v.reportName("reference", p.Child(list.field, Index(i)), false, name, candidates,
				"%q names no tool and no tool group, so this entry %s%s", name, what, hint)
		}
	}
}

// authority checks that reports_to and can_delegate_to name agents or
// roles, and can_approve what can need approval or a role.
func (v *validator) authority(id string, a model.Authority, known map[string]bool) {
	c := v.res.Config
	p := Path{"agents", id, "authority"}
	// Sorted only for a message: done for every agent, it made the
	// check quadratic in the agents (16% of an editor's incremental
	// evaluation at 2,000).
	// The agents declared elsewhere (an editor's evaluation of part of
	// the repository) are candidates too, as in a whole evaluation.
	who := func() []string {
		agents := names(c.Agents)
		for id := range v.elsewhere {
			if _, ok := c.Agents[id]; !ok {
				agents = append(agents, id)
			}
		}
		slices.Sort(agents)
		return append(agents, names(c.Roles)...)
	}
	isWho := func(name string) bool {
		_, agent := c.Agents[name]
		_, role := c.Roles[name]
		return agent || role || v.res.Invalid["agents."+name] || v.elsewhere[name]
	}
	fix := func(name string, candidates []string, what string) string {
		if c, ok := closest(name, candidates); ok {
			return fmt.Sprintf("; did you mean %q?", c)
		}
		return fmt.Sprintf("; name %s, or declare the role: roles: %s: {}", what, quoteLabel(name))
	}
	if to := a.ReportsTo; to != "" && !isWho(to) {
		who := who()
		v.reportName("reference", p.Child("reports_to"), false, to, who,
			"reports_to names %q, which is no agent and no role%s", to, fix(to, who, "an agent"))
	}
	for i, to := range a.CanDelegateTo {
		if !isWho(to) {
			who := who()
			v.reportName("reference", p.Child("can_delegate_to", Index(i)), false, to, who,
				"can_delegate_to names %q, which is no agent and no role%s", to, fix(to, who, "an agent"))
		}
	}
	approvable := map[string]bool{}
	if cat, ok := c.Categories["approval"]; ok {
		for s := range cat.Settings {
			approvable[s], approvable["approval."+s] = true, true
		}
	}
	for _, pr := range c.Profiles {
		for rid := range pr.Rules {
			approvable[rid] = true
		}
	}
	for i, what := range a.CanApprove {
		if approvable[what] || known[what] || isWho(what) {
			continue
		}
		candidates := append(sortedKeys(approvable), names(c.Roles)...)
		v.reportName("reference", p.Child("can_approve", Index(i)), false, what, candidates,
			"can_approve names %q, which is no approval setting, tool, tool family, rule or role%s", what, fix(what, candidates, "an approval setting (financial_actions, ...), a tool or a rule"))
	}
}

// restricts checks a parameter that restricts its behavior's tools.
func (v *validator) restricts(p Path, bt *model.BehaviorType, param *model.Param) {
	r := param.Restricts
	if r == nil {
		return
	}
	if param.Type != "list" {
		v.report("schema", p.Child("restricts"), "a parameter that restricts tools holds the values they may take: make it a list (type: \"list\")")
	}
	if len(r.Tools) == 0 {
		v.report("schema", p.Child("restricts", "tools"), "restricts names no tool; name the behavior's tools whose calls the parameter limits")
	}
	for i, t := range r.Tools {
		if _, ok := bt.Tools[t]; !ok {
			v.reportName("reference", p.Child("restricts", "tools", Index(i)), false, t, names(bt.Tools), "%q is not a tool of this behavior type, and a parameter restricts its own behavior's tools%s", t, didYouMean(t, names(bt.Tools), "tools"))
		}
	}
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// quoteLabel writes a name as a CUE label: quoted unless it is an
// identifier.
func quoteLabel(name string) string {
	for i, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return `"` + name + `"`
		}
	}
	return name
}
