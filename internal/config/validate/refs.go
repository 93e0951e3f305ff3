package validate

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	chrules "github.com/charter-dev/charter/rules"

	"github.com/charter-dev/charter/render/template"

	"github.com/charter-dev/charter/internal/config/model"
)

// references checks what the schema cannot: option membership, names that
// must exist, cycles, and rules about lists.
func (v *validator) references() {
	c := v.res.Config
	for _, name := range names(c.Categories) {
		v.category(name, c.Categories[name])
	}
	for _, name := range names(c.Presets) {
		v.behavior(Path{"presets", name, "behavior"}, c.Presets[name].Behavior)
	}
	for _, slug := range names(c.AgentTypes) {
		t := c.AgentTypes[slug]
		v.refList(Path{"agentTypes", slug, "presets"}, t.Presets, "presets", "preset")
		v.refList(Path{"agentTypes", slug, "categories"}, t.Categories, "categories", "category")
		v.behavior(Path{"agentTypes", slug, "behavior"}, t.Behavior)
		v.behaviorUses(Path{"agentTypes", slug, "behaviors"}, t.Behaviors)
		v.skills(Path{"agentTypes", slug, "skills"}, t.Skills)
		v.agentTypeParts(slug, t)
	}
	for _, name := range names(c.BehaviorTypes) {
		v.behaviorType(name, c.BehaviorTypes[name])
	}
	v.profiles()
	for _, id := range names(c.Agents) {
		v.agent(id, c.Agents[id])
	}
	for _, name := range names(c.Tests) {
		v.test(name, c.Tests[name])
	}
	v.flows()
	v.enforcement()
}

// exists reports whether kind.name is declared (valid or not).
func (v *validator) exists(kind, name string, ok bool) bool {
	return ok || v.res.Invalid[kind+"."+name]
}

func (v *validator) ref(path Path, kind, noun, name string, ok bool, candidates []string) {
	if v.exists(kind, name, ok) {
		return
	}
	v.reportName("reference", path, false, name, candidates, "unknown %s %q%s", noun, name, didYouMean(name, candidates, noun+"s"))
}

func (v *validator) refList(path Path, list []string, kind, noun string) {
	c := v.res.Config
	for i, name := range list {
		var ok bool
		switch kind {
		case "presets":
			_, ok = c.Presets[name]
			v.ref(path.Child(Index(i)), kind, noun, name, ok, names(c.Presets))
		case "categories":
			_, ok = c.Categories[name]
			v.ref(path.Child(Index(i)), kind, noun, name, ok, names(c.Categories))
			if slices.Index(list, name) < i {
				v.report("reference", path.Child(Index(i)), "%s %q is listed twice; list each once", noun, name)
			}
		}
	}
}

func (v *validator) category(name string, cat *model.Category) {
	for _, sname := range names(cat.Settings) {
		s := cat.Settings[sname]
		p := Path{"categories", name, "settings", sname}
		hasOpts, numeric := len(s.Options) > 0, s.Numeric()
		switch {
		case hasOpts && numeric:
			v.report("schema", p, "a setting has either options or a range/values, not both")
			continue
		case !hasOpts && !numeric:
			v.report("schema", p, "a setting needs options (named choices) or a range or values (numbers)")
			continue
		}
		if s.Range != nil && s.Range.Min > s.Range.Max {
			v.report("schema", p.Child("range"), "min %v is greater than max %v", s.Range.Min, s.Range.Max)
		}
		if msg := v.choiceProblem(s, s.Default); msg != "" {
			v.report("schema", p.Child("default"), "the default %s", msg)
		}
		v.settingLine(p.Child("line"), s.Line, numeric)
	}
}

// settingLine checks a setting's line template: it must parse, and use
// only {text} (not in numeric settings, which have no option text) and
// {value}.
func (v *validator) settingLine(path Path, line string, numeric bool) {
	tmpl, err := template.Parse(line)
	if err != nil {
		v.report("placeholder", path, "%v", err)
		return
	}
	for _, ph := range tmpl.Placeholders() {
		switch {
		case ph.Name == "text" && numeric:
			v.report("placeholder", path, "numeric settings have no option text: use {value} instead of {text}")
		case ph.Name != "text" && ph.Name != "value":
			v.report("placeholder", path, "unknown placeholder {%s} in a setting's line; a line may use {text} (the option's text) and {value} (the option's name or number)", ph.Name)
		}
	}
}

// optionNames are the names a wrong choice ch of s may be a typo of: the
// options of a setting that has them, when ch is a name.
func optionNames(s *model.Setting, ch model.Choice) []string {
	if s.Numeric() || ch.IsNumber {
		return nil
	}
	return names(s.Options)
}

// choiceProblem says why ch is not a valid choice of s, or "".
func (v *validator) choiceProblem(s *model.Setting, ch model.Choice) string {
	if s.Numeric() {
		if !ch.IsNumber {
			return fmt.Sprintf("%q is not a number; valid values: %s", ch.Name, numericDomain(s))
		}
		if s.Integer && ch.Number != math.Trunc(ch.Number) {
			return fmt.Sprintf("%s is not a whole number; valid values: %s, whole numbers only", ch, numericDomain(s))
		}
		if s.Range != nil && (ch.Number < s.Range.Min || ch.Number > s.Range.Max) ||
			len(s.Values) > 0 && !slices.Contains(s.Values, ch.Number) {
			return fmt.Sprintf("%s is out of range; valid values: %s", ch, numericDomain(s))
		}
		return ""
	}
	if ch.IsNumber {
		return fmt.Sprintf("%s is a number, not an option; valid options: %s", ch, join(names(s.Options)))
	}
	if _, ok := s.Options[ch.Name]; !ok {
		msg := fmt.Sprintf("%q is not an option; valid options: %s", ch.Name, join(names(s.Options)))
		if c, ok := closest(ch.Name, names(s.Options)); ok {
			msg += fmt.Sprintf(" (did you mean %q?)", c)
		}
		return msg
	}
	return ""
}

func numericDomain(s *model.Setting) string {
	if s.Range != nil {
		return fmt.Sprintf("%s to %s", model.NumberChoice(s.Range.Min), model.NumberChoice(s.Range.Max))
	}
	var parts []string
	for _, x := range s.Values {
		parts = append(parts, model.NumberChoice(x).String())
	}
	return strings.Join(parts, ", ")
}

// behavior checks a selection of options.
func (v *validator) behavior(path Path, b model.Behavior) {
	c := v.res.Config
	for _, cname := range names(b) {
		cat, ok := c.Categories[cname]
		if !ok {
			v.reportName("unknown-category", path.Child(cname), true, cname, names(c.Categories), "unknown category %q%s", cname, didYouMean(cname, names(c.Categories), "categories"))
			continue
		}
		if v.res.Invalid["categories."+cname] {
			continue // its own errors come first
		}
		for _, sname := range names(b[cname]) {
			s, ok := cat.Settings[sname]
			if !ok {
				v.reportName("unknown-setting", path.Child(cname, sname), true, sname, names(cat.Settings), "category %s has no setting %q%s", cname, sname, didYouMean(sname, names(cat.Settings), "settings"))
				continue
			}
			if ch := b[cname][sname]; v.choiceProblem(s, ch) != "" {
				p := path.Child(cname, sname)
				v.reportName("unknown-option", p, false, ch.Name, optionNames(s, ch), "%s", v.choiceProblem(s, ch))
			}
		}
	}
}

func (v *validator) behaviorType(name string, bt *model.BehaviorType) {
	v.behaviorTypeParts(name, bt)
	for _, pname := range names(bt.Params) {
		p := bt.Params[pname]
		if p.Default != nil && !paramTypeOK(p.Type, p.Default) {
			v.report("schema", Path{"behaviorTypes", name, "params", pname, "default"}, "the default %s has the wrong type: want %s", showAny(p.Default), paramTypeName(p.Type))
		}
	}
}

// paramTypeName says a parameter type in words: "an integer".
func paramTypeName(typ string) string {
	switch typ {
	case "int":
		return "an integer"
	case "bool":
		return "a boolean"
	}
	return article(typ)
}

// showAny renders a decoded value briefly for a message, as JSON.
func showAny(x any) string {
	b, err := json.Marshal(x)
	if err != nil {
		return fmt.Sprint(x)
	}
	if len(b) > 60 {
		return string(b[:57]) + "..."
	}
	return string(b)
}

func paramTypeOK(typ string, x any) bool {
	switch typ {
	case "string":
		_, ok := x.(string)
		return ok
	case "bool":
		_, ok := x.(bool)
		return ok
	case "list":
		_, ok := x.([]any)
		return ok
	case "int":
		switch n := x.(type) {
		case int, int64:
			return true
		case float64:
			return n == float64(int64(n))
		}
		return false
	case "number":
		switch x.(type) {
		case int, int64, float64:
			return true
		}
		return false
	}
	return true
}

func (v *validator) agent(id string, a *model.Agent) {
	c := v.res.Config
	p := Path{"agents", id}
	_, ok := c.AgentTypes[a.Type]
	v.ref(p.Child("type"), "agentTypes", "agent type", a.Type, ok, names(c.AgentTypes))
	if a.Profile != "" {
		_, ok := c.Profiles[a.Profile]
		v.ref(p.Child("profile"), "profiles", "profile", a.Profile, ok, names(c.Profiles))
	}
	v.refList(p.Child("presets"), a.Presets, "presets", "preset")
	v.behavior(p.Child("behavior"), a.Behavior)
	v.behaviorUses(p.Child("behaviors"), a.Behaviors)
	v.skills(p.Child("skills"), a.Skills)
	v.agentOutput(id, a)
}

// behaviorUses checks a list of behaviors attached to an agent or type.
func (v *validator) behaviorUses(p Path, uses []model.BehaviorUse) {
	c := v.res.Config
	for i, use := range uses {
		bp := p.Child(Index(i))
		bt, ok := c.BehaviorTypes[use.Type]
		if !ok {
			v.ref(bp.Child("type"), "behaviorTypes", "behavior type", use.Type, false, names(c.BehaviorTypes))
			continue
		}
		for _, pname := range names(use.Params) {
			param, ok := bt.Params[pname]
			if !ok {
				fix := didYouMean(pname, names(bt.Params), "parameters")
				if len(bt.Params) == 0 {
					fix = ": it takes no parameters; remove params"
				}
				v.reportName("unknown-param", bp.Child("params", pname), true, pname, names(bt.Params), "behavior type %s has no parameter %q%s", use.Type, pname, fix)
				continue
			}
			if !paramTypeOK(param.Type, use.Params[pname]) {
				v.report("schema", bp.Child("params", pname), "%s has the wrong type: want %s", showAny(use.Params[pname]), paramTypeName(param.Type))
			}
		}
	}
}

func (v *validator) skills(p Path, s model.SkillSet) {
	tiers := map[string]string{}
	for _, tier := range []struct {
		name   string
		skills []model.Skill
	}{{"primary", s.Primary}, {"secondary", s.Secondary}} {
		seen := map[string]bool{}
		for i, sk := range tier.skills {
			sp := p.Child(tier.name, Index(i), "id")
			switch {
			case seen[sk.ID]:
				v.report("skill", sp, "duplicate skill id %q in %s skills; each skill appears once per tier", sk.ID, tier.name)
			case tiers[sk.ID] != "" && tiers[sk.ID] != tier.name:
				v.report("skill", sp, "skill %q is in both primary and secondary skills; keep it in one tier", sk.ID)
			}
			seen[sk.ID] = true
			tiers[sk.ID] = tier.name
		}
	}
}

// profiles checks extends (names and cycles) and each rule.
func (v *validator) profiles() {
	c := v.res.Config
	for _, name := range names(c.Profiles) {
		pr := c.Profiles[name]
		p := Path{"profiles", name}
		if pr.Extends != "" {
			_, ok := c.Profiles[pr.Extends]
			v.ref(p.Child("extends"), "profiles", "profile", pr.Extends, ok, names(c.Profiles))
		}
		// Walk the chain; report a cycle once, at the profile with the
		// smallest name in it.
		seen := []string{name}
		for cur := pr.Extends; cur != ""; {
			if i := slices.Index(seen, cur); i >= 0 {
				cycle := append(seen[i:], cur)
				if slices.Min(seen[i:]) == name {
					v.report("extends-cycle", p.Child("extends"), "profiles extend each other in a cycle: %s; remove one extends", strings.Join(cycle, " -> "))
				}
				break
			}
			seen = append(seen, cur)
			next, ok := c.Profiles[cur]
			if !ok {
				break
			}
			cur = next.Extends
		}
		v.classifier(name, pr)
		v.allowProtected(name, pr)
		inherited := v.inheritedRules(name)
		for _, rid := range names(pr.Rules) {
			v.rule(p.Child("rules", rid), pr.Rules[rid], inherited[rid])
		}
	}
}

// inheritedRules lists the rules a profile's ancestors declare.
func (v *validator) inheritedRules(name string) map[string]bool {
	c := v.res.Config
	out := map[string]bool{}
	for _, cur := range c.Ancestors(name) {
		if pr, ok := c.Profiles[cur]; ok {
			for id := range pr.Rules {
				out[id] = true
			}
		}
	}
	return out
}

func (v *validator) rule(p Path, r *model.Rule, inherited bool) {
	if !inherited {
		var missing []string
		if r.Trigger == "" {
			missing = append(missing, "trigger")
		}
		if r.Action == "" {
			missing = append(missing, "action")
		}
		if len(missing) > 0 {
			v.report("rule", p, "a new rule needs %s (this rule is not inherited through extends, so there is nothing to change)", strings.Join(missing, " and "))
		}
	}
	// The condition itself is checked by the compiler, which compiles it as
	// the rule engine will (compiler.checkConditions).
}

func (v *validator) test(name string, t *model.Test) {
	c := v.res.Config
	p := Path{"tests", name}
	switch {
	case t.Profile != "" && t.Agent != "":
		v.report("reference", p, "a test names a profile or an agent, not both")
	case t.Profile != "":
		_, ok := c.Profiles[t.Profile]
		v.ref(p.Child("profile"), "profiles", "profile", t.Profile, ok, names(c.Profiles))
	case t.Agent != "":
		_, ok := c.Agents[t.Agent]
		v.ref(p.Child("agent"), "agents", "agent", t.Agent, ok, names(c.Agents))
	default:
		v.report("reference", p, "a test needs a profile or an agent whose rules it tests")
	}
	profile := t.Profile
	if a, ok := c.Agents[t.Agent]; ok && profile == "" {
		profile = a.Profile
	}
	rules, known := v.profileRules(profile)
	if t.Agent != "" {
		// An agent's calls meet its tool permissions before its profile.
		rules = append(rules, chrules.GateRule)
	}
	// Every call meets the protection of protected files.
	rules = append(rules, chrules.FailClosedRule, chrules.ProtectRule)
	for i, e := range t.Expect {
		if e.Call >= len(t.Calls) {
			calls := "calls"
			if len(t.Calls) == 1 {
				calls = "call"
			}
			v.report("reference", p.Child("expect", Index(i), "call"), "call %d does not exist: the test has %d %s, numbered from 0", e.Call, len(t.Calls), calls)
		}
		if !known {
			continue
		}
		for j, f := range e.Fires {
			if !slices.Contains(rules, f.Rule) {
				// Such a test can never pass.
				v.reportName("reference", p.Child("expect", Index(i), "fires", Index(j), "rule"), false, f.Rule, rules,
					"unknown rule %q of profile %s%s", f.Rule, profile, didYouMean(f.Rule, rules, "rules"))
			}
		}
	}
}

// profileRules returns the rule ids of profile name with those it
// inherits through extends, sorted; known is false when the profile, or
// one it extends, is not declared (another check says so).
func (v *validator) profileRules(name string) (ids []string, known bool) {
	c := v.res.Config
	seen := map[string]bool{}
	for name != "" && !seen[name] {
		seen[name] = true
		pr, ok := c.Profiles[name]
		if !ok {
			return nil, false
		}
		for id := range pr.Rules {
			ids = append(ids, id)
		}
		name = pr.Extends
	}
	slices.Sort(ids)
	return slices.Compact(ids), len(seen) > 0
}
