package lsp

import (
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/charter-dev/charter/internal/config/model"
)

// ref is what a cursor names: a declaration of the model and where it is
// declared.
type ref struct {
	kind string // option, setting, category, agent type, preset, profile, behavior type, parameter, agent, tool, rule, model, placeholder
	name string
	// cat and setting qualify an option or a setting; owner is the
	// behavior type of a parameter or tool, the profile of a rule, the
	// agent type of a placeholder.
	cat, setting, owner string
	// decl is the declaration's path in an index.
	decl string
}

// behaviorAt returns the index of "behavior" in a path that selects a
// behavior (of an agent, agent type or preset), or -1.
func behaviorAt(p []string) int {
	if len(p) >= 3 && p[2] == "behavior" && (p[0] == "agents" || p[0] == "agentTypes" || p[0] == "presets") {
		return 2
	}
	return -1
}

// is reports whether p matches pattern, where "*" matches any label.
func is(p []string, pattern ...string) bool {
	if len(p) != len(pattern) {
		return false
	}
	for i := range p {
		if pattern[i] != "*" && pattern[i] != p[i] {
			return false
		}
	}
	return true
}

// resolve says what the cursor names in cfg, or nil.
func resolve(c *cursor, cfg *model.Config) *ref {
	p, v := c.path, c.value
	if b := behaviorAt(p); b >= 0 && len(p) > b+1 {
		cat := p[b+1]
		switch {
		case len(p) == b+2 && c.label:
			return categoryRef(cat)
		case len(p) == b+3 && c.label:
			return settingRef(cat, p[b+2])
		case len(p) == b+3 && !c.inStruct:
			return optionRef(cat, p[b+2], v)
		}
		return nil
	}
	if c.label {
		switch {
		case is(p, "categories", "*"):
			return categoryRef(p[1])
		case is(p, "categories", "*", "settings", "*"):
			return settingRef(p[1], p[3])
		case is(p, "categories", "*", "settings", "*", "options", "*"):
			return optionRef(p[1], p[3], p[5])
		case is(p, "agentTypes", "*"):
			return &ref{kind: "agent type", name: p[1], decl: "agentTypes." + p[1]}
		case is(p, "presets", "*"):
			return &ref{kind: "preset", name: p[1], decl: "presets." + p[1]}
		case is(p, "profiles", "*"):
			return &ref{kind: "profile", name: p[1], decl: "profiles." + p[1]}
		case is(p, "behaviorTypes", "*"):
			return &ref{kind: "behavior type", name: p[1], decl: "behaviorTypes." + p[1]}
		case is(p, "behaviorTypes", "*", "params", "*"):
			return paramRef(p[1], p[3])
		case is(p, "behaviorTypes", "*", "tools", "*"):
			return &ref{kind: "tool", name: p[3], owner: p[1], decl: "behaviorTypes." + p[1] + ".tools." + p[3]}
		case is(p, "agents", "*"):
			return &ref{kind: "agent", name: p[1], decl: "agents." + p[1]}
		case is(p, "agents", "*", "behaviors", elem, "params", "*"):
			return paramRef(c.element["type"], p[5])
		case is(p, "models", "*"):
			return &ref{kind: "model", name: p[1], decl: "models." + p[1]}
		}
	}
	if c.label && is(p, "lint", "severity", "*") {
		return &ref{kind: "lint rule", name: p[2]}
	}
	if len(p) >= 4 && p[0] == "profiles" && p[2] == "rules" {
		return &ref{kind: "rule", name: p[3], owner: p[1], decl: "profiles." + p[1] + ".rules." + p[3]}
	}
	if c.label || c.inStruct || !c.str {
		return nil
	}
	switch {
	case is(p, "categories", "*", "settings", "*", "default"):
		return optionRef(p[1], p[3], v)
	case is(p, "agents", "*", "type"):
		return &ref{kind: "agent type", name: v, decl: "agentTypes." + v}
	case is(p, "agents", "*", "presets", elem), is(p, "agentTypes", "*", "presets", elem):
		return &ref{kind: "preset", name: v, decl: "presets." + v}
	case is(p, "agents", "*", "profile"), is(p, "tests", "*", "profile"), is(p, "profiles", "*", "extends"):
		return &ref{kind: "profile", name: v, decl: "profiles." + v}
	case is(p, "agents", "*", "behaviors", elem, "type"):
		return &ref{kind: "behavior type", name: v, decl: "behaviorTypes." + v}
	case is(p, "agents", "*", "authority", "reports_to"), is(p, "agents", "*", "authority", "can_delegate_to", elem), is(p, "tests", "*", "agent"):
		return &ref{kind: "agent", name: v, decl: "agents." + v}
	case is(p, "agents", "*", "tools", "allowed", elem), is(p, "agents", "*", "tools", "denied", elem):
		return toolRef(cfg, v)
	case is(p, "agents", "*", "model", "model_id"), is(p, "agents", "*", "model", "fallback_model"):
		return &ref{kind: "model", name: v, decl: "models." + v}
	case is(p, "lint", "disable", elem):
		return &ref{kind: "lint rule", name: v}
	case is(p, "agentTypes", "*", "system_prompt"):
		return &ref{kind: "template", owner: p[1]}
	}
	return nil
}

func categoryRef(c string) *ref {
	return &ref{kind: "category", name: c, cat: c, decl: "categories." + c}
}
func settingRef(c, s string) *ref {
	return &ref{kind: "setting", name: s, cat: c, setting: s, decl: "categories." + c + ".settings." + s}
}
func optionRef(c, s, o string) *ref {
	return &ref{kind: "option", name: o, cat: c, setting: s, decl: "categories." + c + ".settings." + s + ".options." + o}
}
func paramRef(bt, name string) *ref {
	return &ref{kind: "parameter", name: name, owner: bt, decl: "behaviorTypes." + bt + ".params." + name}
}

// toolRef names the first behavior type (by name) that provides a tool.
func toolRef(cfg *model.Config, name string) *ref {
	r := &ref{kind: "tool", name: name}
	if cfg == nil {
		return r
	}
	for _, bt := range model.Sorted(cfg.BehaviorTypes) {
		if _, ok := cfg.BehaviorTypes[bt].Tools[name]; ok {
			r.owner, r.decl = bt, "behaviorTypes."+bt+".tools."+name
			return r
		}
	}
	return r
}

// fieldNames returns the field names a struct at path may have, from the
// model's types (their JSON names are the CUE ones).
func fieldNames(cfg *model.Config, path []string) []string {
	if len(path) == 0 {
		return slices.Sorted(maps.Keys(topLevel))
	}
	if b := behaviorAt(path); b >= 0 && cfg != nil {
		switch len(path) - b {
		case 1:
			return cfg.CategoryNames()
		case 2:
			if cat := cfg.Categories[path[b+1]]; cat != nil {
				return model.Sorted(cat.Settings)
			}
		}
		return nil
	}
	if is(path, "agents", "*", "behaviors", elem, "params") {
		return nil // the caller knows the behavior type
	}
	t := reflect.TypeFor[model.Config]()
	for _, label := range path {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch t.Kind() {
		case reflect.Map, reflect.Slice:
			t = t.Elem()
		case reflect.Struct:
			f, ok := fieldByJSON(t, label)
			if !ok {
				return nil
			}
			t = f.Type
		default:
			return nil
		}
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	var out []string
	for i := range t.NumField() {
		if name := jsonName(t.Field(i)); name != "" {
			out = append(out, name)
		}
	}
	return out
}

func fieldByJSON(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		if jsonName(t.Field(i)) == name {
			return t.Field(i), true
		}
	}
	return reflect.StructField{}, false
}

func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "-" || !f.IsExported() {
		return ""
	}
	return name
}
