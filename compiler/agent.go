package compiler

import (
	"maps"
	"slices"

	"github.com/charter-dev/charter/internal/config/model"
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
	// Tools is the merged tool list, in behavior order then by name:
	// every tool the behaviors provide.
	Tools []ProvidedTool
	// Effective are the tools of Tools the agent may call (see
	// permissions.go); Excluded the others, each with the declaration
	// that took it away.
	Effective []ProvidedTool
	Excluded  []Exclusion
	// DeniedTools are the tools tools.denied takes away that no behavior
	// of the agent provides (a tool of a denied group, a runtime's name),
	// each with the group it came through ("" when named itself): the gate
	// denies them too.
	DeniedTools []DeniedTool
	// Constraints are the limits the agent's behaviors' parameters put on
	// the calls of the tools it may call (a whitelist of programs).
	Constraints []rules.Constraint
	// Strictness gives, for each setting of the agent's behavior whose
	// category orders its options ("approval.financial_actions"), the
	// options from strictest to loosest, for diff.
	Strictness map[string][]string
	// ToolsDeclaredAt holds the positions of the agent's tools.allowed,
	// tools.denied and tools.access_level, those it declares.
	ToolsDeclaredAt map[string]Position
	// RuntimeTools maps, per runtime, the runtime's name for a tool to
	// charter's tool (model.Config.Runtimes inverted); shared by every
	// agent: do not change it.
	RuntimeTools map[string]map[string]string
	// Delegates are the agents it may start (agent.json's delegates_to):
	// authority.can_delegate_to resolved, an agent id as itself and a role
	// as its members, sorted, each once. It may always start itself too,
	// which widens nothing; it is listed only when declared.
	Delegates []string
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
	// Events are the lifecycle events the behavior handles, as declared.
	Events []string
	// Context are the behavior's context blocks, parameters filled in.
	Context []Injection
}

// ProvidedTool is a tool a behavior brings.
type ProvidedTool struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Parameters  map[string]any `json:"parameters,omitempty"`
	Destructive bool           `json:"destructive,omitempty"`
	Behavior    string         `json:"behavior"`
	// Instructions are the tool's own prompt lines.
	Instructions string `json:"instructions,omitempty"`
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

// Layer is one source of an agent's behavior choices.
type Layer struct {
	// Origin names the layer; its Path is empty.
	Origin Origin
	// Behavior holds the choices the layer makes.
	Behavior model.Behavior
	// Path is the CUE path of the behavior struct.
	Path []string
}

// Layers returns the layers that set an agent's behavior, in the order
// they apply (the last one that sets a value wins), after the category
// defaults: the type's presets, the type, the agent's presets, the agent.
func (p *Program) Layers(a *Agent) []Layer {
	cfg := p.Config
	var ls []Layer
	preset := func(layer, name string) {
		if pr, ok := cfg.Presets[name]; ok {
			ls = append(ls, Layer{Origin{Layer: layer, Name: name}, pr.Behavior, []string{"presets", name, "behavior"}})
		}
	}
	if t := a.Type; t != nil {
		for _, name := range t.Presets {
			preset("type-preset", name)
		}
		ls = append(ls, Layer{Origin{Layer: "type", Name: a.Decl.Type}, t.Behavior, []string{"agentTypes", a.Decl.Type, "behavior"}})
	}
	for _, name := range a.Decl.Presets {
		preset("agent-preset", name)
	}
	return append(ls, Layer{Origin{Layer: "agent", Name: a.ID}, a.Decl.Behavior, []string{"agents", a.ID, "behavior"}})
}

func (c *compilation) agent(id string) *Agent {
	cfg := c.prog.Config
	a := cfg.Agents[id]
	t := cfg.AgentTypes[a.Type]
	ra := &Agent{ID: id, Decl: a, Type: t, RuntimeTools: c.prog.RuntimeTools}
	if t != nil {
		ra.Variables = t.Variables
	}
	ls := c.prog.Layers(ra)
	for _, cname := range c.prog.Categories(t) {
		cat := cfg.Categories[cname]
		rc := ResolvedCategory{Name: cname, Title: cat.Title}
		for _, sname := range c.prog.SettingOrder[cname] {
			s := cat.Settings[sname]
			def := []string{"categories", cname, "settings", sname, "default"}
			rs := ResolvedSetting{Name: sname, Line: s.Line, Value: s.Default,
				Origin: Origin{Layer: "default", Path: dotted(def), labels: def}}
			for _, l := range ls {
				if ch, ok := l.Behavior[cname][sname]; ok {
					p := append(slices.Clone(l.Path), cname, sname)
					rs.Value = ch
					rs.Origin = l.Origin
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
	c.permissions(ra)
	c.constraints(ra)
	c.strictness(ra)
	ra.Delegates = Delegates(cfg, a.Authority.CanDelegateTo)
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
		ra.Behaviors = append(ra.Behaviors, ResolvedBehavior{Type: use.Type, Kind: bt.Kind, Params: params, Instructions: FillParams(bt.Instructions, params), Index: i,
			Events: bt.Events, Context: injections(bt, params)})
		for _, name := range model.Sorted(bt.Tools) {
			tool := bt.Tools[name]
			if prev, dup := from[name]; dup {
				c.errorf("tool-conflict", []string{"agents", ra.ID, "behaviors"},
					"tool %q is provided by both %s and %s; an agent may get each tool from one behavior only: remove one of them", name, prev, use.Type)
				continue
			}
			from[name] = use.Type
			ra.Tools = append(ra.Tools, ProvidedTool{Name: name, Description: tool.Description, Parameters: tool.Parameters, Destructive: tool.Destructive, Behavior: use.Type, Instructions: FillParams(tool.Instructions, params)})
		}
	}
}

// Delegates resolves the names of a can_delegate_to list to agent ids:
// an agent is itself, a role its members (roles.NAME.members); a name
// that is neither adds no one. The result is sorted, each id once.
func Delegates(cfg *model.Config, names []string) []string {
	set := map[string]bool{}
	for _, n := range names {
		if _, ok := cfg.Agents[n]; ok {
			set[n] = true
			continue
		}
		if r, ok := cfg.Roles[n]; ok {
			for _, m := range r.Members {
				if _, ok := cfg.Agents[m]; ok {
					set[m] = true
				}
			}
		}
	}
	return slices.Sorted(maps.Keys(set))
}
