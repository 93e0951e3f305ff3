package compiler

import (
	"cmp"
	"maps"
	"slices"

	"github.com/charter-dev/charter/model"
	"github.com/charter-dev/charter/rules"
)

// flatten resolves a profile's extends chain: ancestors' rules and tool
// families first, each descendant's fields over them.
func (c *compilation) flatten(name string) *rules.Profile {
	cfg := c.prog.Config
	var chain []string // nearest ancestor first
	seen := map[string]bool{name: true}
	for cur := cfg.Profiles[name].Extends; cur != "" && !seen[cur]; {
		seen[cur] = true
		chain = append(chain, cur)
		p, ok := cfg.Profiles[cur]
		if !ok {
			break
		}
		cur = p.Extends
	}
	out := &rules.Profile{Name: name, Description: cfg.Profiles[name].Description, Extends: chain, ToolFamilies: map[string][]string{}}
	merged := map[string]*model.Rule{}
	// Apply from the root ancestor down to the profile itself.
	order := append(slices.Clone(chain), "")
	slices.Reverse(order[:len(order)-1])
	order[len(order)-1] = name
	for _, pname := range order {
		p, ok := cfg.Profiles[pname]
		if !ok {
			continue
		}
		for fam, tools := range p.ToolFamilies {
			out.ToolFamilies[fam] = tools
		}
		if p.Classifier != nil {
			cl := rules.Classifier(*p.Classifier)
			out.Classifier = &cl
		}
		for id, r := range p.Rules {
			m, ok := merged[id]
			if !ok {
				m = &model.Rule{}
				merged[id] = m
			}
			overlay(m, r)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(merged)) {
		r := merged[id]
		rr := rules.Rule{ID: id, Text: r.Rule, Trigger: r.Trigger, Action: rules.Action(r.Action), Message: r.Message, Enabled: true}
		if r.Cooldown != nil {
			rr.Cooldown = *r.Cooldown
		}
		if r.Enabled != nil {
			rr.Enabled = *r.Enabled
		}
		if r.Condition != nil {
			rr.Condition = &rules.Condition{Type: rules.ConditionType(r.Condition.Type), Field: r.Condition.Field,
				Substring: r.Condition.Substring, Pattern: r.Condition.Pattern, Values: r.Condition.Values, Expr: r.Condition.Expr}
		}
		out.Rules = append(out.Rules, rr)
	}
	slices.SortFunc(out.Rules, func(a, b rules.Rule) int { return cmp.Compare(a.ID, b.ID) })
	if len(out.ToolFamilies) == 0 {
		out.ToolFamilies = nil
	}
	return out
}

// overlay sets every field r sets on m.
func overlay(m, r *model.Rule) {
	if r.Rule != "" {
		m.Rule = r.Rule
	}
	if r.Trigger != "" {
		m.Trigger = r.Trigger
	}
	if r.Condition != nil {
		m.Condition = r.Condition
	}
	if r.Action != "" {
		m.Action = r.Action
	}
	if r.Message != "" {
		m.Message = r.Message
	}
	if r.Cooldown != nil {
		m.Cooldown = r.Cooldown
	}
	if r.Enabled != nil {
		m.Enabled = r.Enabled
	}
}
