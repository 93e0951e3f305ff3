package compiler

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/rules"
)

// RuleOrigin says where a rule of a flattened profile comes from.
type RuleOrigin struct {
	// Declared lists the profiles of the extends chain that declare the
	// rule, nearest first (the profile itself, then what it extends).
	Declared []string
	// Trigger is the nearest of them whose declaration sets the trigger
	// that wins; the profile itself when none sets one.
	Trigger string
}

// flatten resolves a profile's extends chain, the one place that walks it:
// ancestors' rules and tool families first, each descendant's fields over
// them. It returns the flattened profile and where each rule comes from.
func (c *compilation) flatten(name string) (*rules.Profile, map[string]RuleOrigin) {
	cfg := c.prog.Config
	chain := cfg.Ancestors(name) // nearest ancestor first
	out := &rules.Profile{Name: name, Description: cfg.Profiles[name].Description, Extends: chain, ToolFamilies: map[string][]string{}}
	classify := true
	merged := map[string]*model.Rule{}
	origins := map[string]RuleOrigin{}
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
		if p.ClassifyTurns != nil {
			classify = *p.ClassifyTurns
		}
		for _, a := range p.AllowProtectedWrites {
			if !slices.Contains(out.AllowProtectedWrites, a) {
				out.AllowProtectedWrites = append(out.AllowProtectedWrites, a)
			}
		}
		for id, r := range p.Rules {
			m, ok := merged[id]
			if !ok {
				m = &model.Rule{}
				merged[id] = m
			}
			overlay(m, r)
			o := origins[id]
			o.Declared = append([]string{pname}, o.Declared...)
			if r.Trigger != "" {
				o.Trigger = pname
			}
			origins[id] = o
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
			rr.Condition = ruleCondition(r.Condition)
		}
		out.Rules = append(out.Rules, rr)
	}
	slices.SortFunc(out.Rules, func(a, b rules.Rule) int { return cmp.Compare(a.ID, b.ID) })
	if len(out.ToolFamilies) == 0 {
		out.ToolFamilies = nil
	}
	for id, o := range origins {
		if o.Trigger == "" {
			o.Trigger = name
			origins[id] = o
		}
	}
	if !classify {
		out.Classifier = nil // classify_turns: false turns it off
	}
	expandFamilies(out.ToolFamilies, cfg.Runtimes)
	return out, origins
}

// ruleCondition returns a declared condition as the rule engine takes it.
func ruleCondition(c *model.Condition) *rules.Condition {
	return &rules.Condition{Type: rules.ConditionType(c.Type), Field: c.Field,
		Substring: c.Substring, Pattern: c.Pattern, Values: c.Values, Expr: c.Expr}
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

// checkConditions compiles the condition of every rule the user's files
// declare, as the rule engine will at run time, so that a condition that
// does not parse, type-check or compile (a bad pattern, also inside a CEL
// matches()) fails here and not on an agent's tool call. The standard
// library's rules are checked by its own tests.
func (c *compilation) checkConditions() {
	cfg := c.prog.Config
	for _, name := range model.Sorted(cfg.Profiles) {
		if cfg.Builtin["profiles."+name] {
			continue
		}
		for _, id := range model.Sorted(cfg.Profiles[name].Rules) {
			cond := cfg.Profiles[name].Rules[id].Condition
			if cond == nil {
				continue
			}
			err := rules.CheckCondition(*ruleCondition(cond))
			var errs []error
			var ce *rules.CompileError
			switch {
			case err == nil:
				continue
			case errors.As(err, &ce):
				errs = ce.Errs
			default:
				errs = []error{err}
			}
			for _, e := range errs {
				var ck *rules.CheckError
				if !errors.As(e, &ck) {
					c.errorf("rule", []string{"profiles", name, "rules", id, "condition"}, "%v", e)
					continue
				}
				c.conditionError(name, id, ck)
			}
		}
	}
}

// checkCooldowns reports a block rule with a cooldown, in a profile of the
// user's, at the declaration of its cooldown (or of its action, when the
// cooldown is inherited): a blocked call would go through once others
// ran. rules.Compile refuses such a rule too.
func (c *compilation) checkCooldowns() {
	cfg := c.prog.Config
	for _, name := range model.Sorted(cfg.Profiles) {
		if cfg.Builtin["profiles."+name] {
			continue
		}
		for _, r := range c.prog.Profiles[name].Rules {
			if r.Action != rules.Block || r.Cooldown == 0 {
				continue
			}
			own := cfg.Profiles[name].Rules[r.ID]
			if own == nil || own.Cooldown == nil && own.Action == "" {
				continue // reported at the profile that declares it
			}
			field := "cooldown"
			if own.Cooldown == nil {
				field = "action"
			}
			c.errorf("rule", []string{"profiles", name, "rules", r.ID, field},
				"rule %s blocks and has a cooldown of %d: a cooldown would let the blocked call through once other calls ran; remove the cooldown (an ask rule's cooldown counts from the user's approval, a warn rule's from its warning)", r.ID, r.Cooldown)
		}
	}
}

// conditionError reports one problem of a rule's condition at its field;
// a regular expression that does not compile is regex-invalid's.
func (c *compilation) conditionError(profile, id string, ck *rules.CheckError) {
	path := []string{"profiles", profile, "rules", id}
	path = append(path, strings.Split(ck.Field, ".")...)
	msg := ck.Msg
	if ck.Line > 0 {
		msg = fmt.Sprintf("at line %d, column %d of the expression: %s", ck.Line, ck.Column, msg)
	}
	rule := "rule"
	// Go's regexp error, from a pattern or from a CEL matches().
	if strings.Contains(msg, "error parsing regexp") {
		rule = "regex-invalid"
	}
	if ck.Line == 0 {
		c.errorf(rule, path, "%s", msg)
		return
	}
	// At the mistake in the user's file, as a template's placeholder is:
	// the expression is a string like a template.
	pos := c.prog.exprPos(path, ck.Line, ck.Column)
	c.diags = append(c.diags, diag.Diagnostic{File: pos.File, Line: pos.Line, Column: pos.Column,
		Severity: diag.Error, Rule: rule, Path: dotted(path), Message: dotted(path) + ": " + msg})
}
