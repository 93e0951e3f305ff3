package compiler

import (
	"maps"
	"slices"

	"github.com/charter-dev/charter/model"
	"github.com/charter-dev/charter/rules"
)

// Agent is one agent resolved.
type Agent struct {
	ID   string
	Decl *model.Agent
	Type *model.AgentType
	// Behavior is every category's every setting, resolved.
	Behavior []ResolvedCategory
	// Behaviors are the agent's behaviors with parameter defaults applied.
	Behaviors []ResolvedBehavior
	// Tools is the merged tool list, in behavior order then by name.
	Tools []ProvidedTool
	// Profile is the flattened profile, nil when the agent has none.
	Profile *rules.Profile
	// Variables are the runtime variables of the agent type.
	Variables map[string]*model.Variable
}

// ResolvedCategory is one prompt section.
type ResolvedCategory struct {
	Name     string
	Title    string
	Settings []ResolvedSetting
}

// ResolvedSetting is one setting's final choice.
type ResolvedSetting struct {
	Name   string
	Line   string // the setting's line template
	Value  model.Choice
	Text   string // the option's text ("" for numeric settings)
	Origin Origin
}

// ResolvedBehavior is a behavior attached to an agent.
type ResolvedBehavior struct {
	Type         string
	Kind         string
	Params       map[string]any
	Instructions string
	// Index is the position in the agent's behaviors list.
	Index int
}

// ProvidedTool is a tool a behavior brings.
type ProvidedTool struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Parameters  map[string]any `json:"parameters,omitempty"`
	Destructive bool           `json:"destructive,omitempty"`
	Behavior    string         `json:"behavior"`
}

// Setting returns the resolved setting category.name, if any.
func (a *Agent) Setting(category, name string) (ResolvedSetting, bool) {
	for _, c := range a.Behavior {
		if c.Name != category {
			continue
		}
		for _, s := range c.Settings {
			if s.Name == name {
				return s, true
			}
		}
	}
	return ResolvedSetting{}, false
}

// layer is one source of behavior choices, in the order they apply.
type layer struct {
	origin   Origin
	behavior model.Behavior
	path     []string // CUE path of the behavior struct
}

func (c *compilation) layers(id string, a *model.Agent, t *model.AgentType) []layer {
	cfg := c.prog.Config
	var ls []layer
	if t != nil {
		for _, p := range t.Presets {
			if pr, ok := cfg.Presets[p]; ok {
				ls = append(ls, layer{Origin{Layer: "type-preset", Name: p}, pr.Behavior, []string{"presets", p, "behavior"}})
			}
		}
		ls = append(ls, layer{Origin{Layer: "type", Name: a.Type}, t.Behavior, []string{"agentTypes", a.Type, "behavior"}})
	}
	for _, p := range a.Presets {
		if pr, ok := cfg.Presets[p]; ok {
			ls = append(ls, layer{Origin{Layer: "agent-preset", Name: p}, pr.Behavior, []string{"presets", p, "behavior"}})
		}
	}
	ls = append(ls, layer{Origin{Layer: "agent", Name: id}, a.Behavior, []string{"agents", id, "behavior"}})
	return ls
}

func (c *compilation) agent(id string) *Agent {
	cfg := c.prog.Config
	a := cfg.Agents[id]
	t := cfg.AgentTypes[a.Type]
	ra := &Agent{ID: id, Decl: a, Type: t}
	if t != nil {
		ra.Variables = t.Variables
	}
	ls := c.layers(id, a, t)
	for _, cname := range c.prog.Categories(t) {
		cat := cfg.Categories[cname]
		rc := ResolvedCategory{Name: cname, Title: cat.Title}
		for _, sname := range c.prog.SettingOrder[cname] {
			s := cat.Settings[sname]
			def := []string{"categories", cname, "settings", sname, "default"}
			rs := ResolvedSetting{Name: sname, Line: s.Line, Value: s.Default,
				Origin: Origin{Layer: "default", Path: dotted(def), labels: def}}
			for _, l := range ls {
				if ch, ok := l.behavior[cname][sname]; ok {
					p := append(slices.Clone(l.path), cname, sname)
					rs.Value = ch
					rs.Origin = l.origin
					rs.Origin.Path, rs.Origin.labels = dotted(p), p
				}
			}
			if !s.Numeric() {
				if opt, ok := s.Options[rs.Value.Name]; ok {
					rs.Text = opt.Text
				}
			}
			rc.Settings = append(rc.Settings, rs)
		}
		ra.Behavior = append(ra.Behavior, rc)
	}
	c.behaviors(ra)
	if a.Profile != "" {
		ra.Profile = c.prog.Profiles[a.Profile]
	}
	return ra
}

// behaviors resolves the agent's behaviors and merges their tools; a tool
// that two behaviors bring is an error naming both.
func (c *compilation) behaviors(ra *Agent) {
	cfg := c.prog.Config
	from := map[string]string{}
	for i, use := range ra.Decl.Behaviors {
		bt, ok := cfg.BehaviorTypes[use.Type]
		if !ok {
			continue
		}
		params := map[string]any{}
		for name, p := range bt.Params {
			if p.Default != nil {
				params[name] = p.Default
			}
		}
		maps.Copy(params, use.Params)
		ra.Behaviors = append(ra.Behaviors, ResolvedBehavior{Type: use.Type, Kind: bt.Kind, Params: params, Instructions: bt.Instructions, Index: i})
		for _, name := range model.Sorted(bt.Tools) {
			tool := bt.Tools[name]
			if prev, dup := from[name]; dup {
				c.errorf("tool-conflict", []string{"agents", ra.ID, "behaviors"},
					"tool %q is provided by both %s and %s; an agent may get each tool from one behavior only: remove one of them", name, prev, use.Type)
				continue
			}
			from[name] = use.Type
			ra.Tools = append(ra.Tools, ProvidedTool{Name: name, Description: tool.Description, Parameters: tool.Parameters, Destructive: tool.Destructive, Behavior: use.Type})
		}
	}
}
