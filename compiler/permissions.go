package compiler

import (
	"fmt"
	"slices"

	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/rules"
)

// Access levels, and what each admits of the tools an agent's behaviors
// provide (docs/rules.md has the table). tools.allowed narrows, when given,
// and tools.denied removes, whatever the level.
const (
	// Sandboxed admits only the tools tools.allowed names, and never a
	// destructive one.
	Sandboxed = "sandboxed"
	// Restricted admits only the tools tools.allowed names.
	Restricted = "restricted"
	// Standard admits what the behaviors provide, a destructive tool only
	// when tools.allowed names it.
	Standard = "standard"
	// Elevated admits what the behaviors provide, destructive tools too.
	Elevated = "elevated"
	// Custom (and no level) admits what tools.allowed and tools.denied
	// say, over what the behaviors provide.
	Custom = "custom"
)

// Exclusion is a tool an agent's behaviors provide and the agent may not
// call, with the declaration that took it away.
type Exclusion struct {
	Name     string `json:"name"`
	Behavior string `json:"behavior"`
	// By is the field that took the tool away: tools.denied, tools.allowed
	// or tools.access_level.
	By string `json:"by"`
	// Reason says why, in words.
	Reason string `json:"reason"`
	// Pos is where By is declared. It is not part of agent.json's hashed
	// content: moving a line changes no agent.
	Pos Position `json:"-"`
	// FromType is true when By is the agent type's, which the agent does
	// not declare itself.
	FromType bool `json:"-"`
}

// Declaration names the field and its position ("tools.denied at
// agents/ravi.cue:46:11").
func (e Exclusion) Declaration() string {
	if p := e.Pos.String(); p != "" {
		return e.By + " at " + p
	}
	return e.By
}

// DeniedTool is a tool an agent's tools.denied takes away that none of its
// behaviors provides, and the group it came through ("" for none).
type DeniedTool struct {
	Name  string `json:"name"`
	Group string `json:"group,omitempty"`
}

// expandTools returns the tools a tools.allowed or tools.denied list
// stands for: each entry that names a tool group stands for the group's
// tools (its own and its groups'), any other for itself. The value is the
// group an entry came through, "" for a tool named itself.
func expandTools(cfg *model.Config, entries []string) map[string]string {
	out := map[string]string{}
	for _, e := range entries {
		if tools, ok := cfg.GroupTools(e); ok {
			for _, t := range tools {
				if _, named := out[t]; !named {
					out[t] = e
				}
			}
		}
		// A name both a group and a tool (web_search) names the tool too.
		if _, isGroup := cfg.ToolGroups[e]; !isGroup || slices.Contains(mustGroup(cfg, e), e) {
			out[e] = ""
		}
	}
	return out
}

func mustGroup(cfg *model.Config, name string) []string {
	tools, _ := cfg.GroupTools(name)
	return tools
}

// names says how a list names a tool: "tools.denied names x" or
// "tools.denied names group g, which holds x".
func namedBy(field, tool, group string) string {
	if group == "" {
		return fmt.Sprintf("%s names %s", field, tool)
	}
	return fmt.Sprintf("%s names %s, a tool group that holds %s", field, group, tool)
}

// Restricted reports whether the agent may call only the tools it lists:
// a tools.allowed list, or an access level that admits nothing else. A call
// to a tool that no behavior provides is then outside what it may do.
func (a *Agent) Restricted() bool {
	l := a.Decl.Tools.AccessLevel
	return a.Decl.Tools.Allowed != nil || l == Sandboxed || l == Restricted
}

// EffectiveNames returns the names of the tools the agent may call.
func (a *Agent) EffectiveNames() []string {
	out := make([]string, len(a.Effective))
	for i, t := range a.Effective {
		out[i] = t.Name
	}
	return out
}

// ExclusionOf returns the exclusion of the tool name, if the agent's
// behaviors provide it and the agent may not call it.
func (a *Agent) ExclusionOf(name string) (Exclusion, bool) {
	for _, e := range a.Excluded {
		if e.Name == name {
			return e, true
		}
	}
	return Exclusion{}, false
}

// toolsFieldPos is where the agent's tools.field is declared: in the
// agent's own file, or else in its agent type, whose tools its agents
// take (the type's line is what a reader must change); fromType says it
// is the type's.
func (c *compilation) toolsFieldPos(ra *Agent, field string) (pos Position, fromType bool) {
	if c.prog.locate.Declares("agents", ra.ID, "tools", field) {
		return c.prog.locate.Pos("agents", ra.ID, "tools", field), false
	}
	if pos, _, ok := c.prog.TypeDefault(ra, "tools", field); ok {
		return pos, true
	}
	return c.prog.locate.Pos("agents", ra.ID, "tools", field), false
}

// permissions computes the agent's effective tools from the tools its
// behaviors provide, once, for every later stage: the prompt, agent.json,
// eval, the hook and the exports.
func (c *compilation) permissions(ra *Agent) {
	perms := ra.Decl.Tools
	level := perms.AccessLevel
	fromType := map[string]bool{}
	for field, set := range map[string]bool{"allowed": perms.Allowed != nil, "denied": perms.Denied != nil, "access_level": level != ""} {
		if set {
			if ra.ToolsDeclaredAt == nil {
				ra.ToolsDeclaredAt = map[string]Position{}
			}
			ra.ToolsDeclaredAt["tools."+field], fromType["tools."+field] = c.toolsFieldPos(ra, field)
		}
	}
	cfg := c.prog.Config
	allowed, denied := expandTools(cfg, perms.Allowed), expandTools(cfg, perms.Denied)
	for _, t := range ra.Tools {
		ex := Exclusion{Name: t.Name, Behavior: t.Behavior}
		_, named := allowed[t.Name]
		group, isDenied := denied[t.Name]
		switch {
		case isDenied:
			ex.By, ex.Reason = "tools.denied", namedBy("tools.denied", t.Name, group)
		case perms.Allowed != nil && !named:
			ex.By, ex.Reason = "tools.allowed", fmt.Sprintf("tools.allowed does not name %s, nor a tool group that holds it", t.Name)
		case (level == Sandboxed || level == Restricted) && perms.Allowed == nil:
			ex.By, ex.Reason = "tools.access_level", fmt.Sprintf("access level %s admits only the tools tools.allowed names, and the agent names none", level)
		case level == Sandboxed && t.Destructive:
			ex.By, ex.Reason = "tools.access_level", fmt.Sprintf("access level sandboxed admits no destructive tool, and %s is one", t.Name)
		case level == Standard && t.Destructive && !named:
			ex.By, ex.Reason = "tools.access_level", fmt.Sprintf("access level standard admits a destructive tool (%s is one) only when tools.allowed names it", t.Name)
		default:
			ra.Effective = append(ra.Effective, t)
			continue
		}
		ex.Pos, ex.FromType = ra.ToolsDeclaredAt[ex.By], fromType[ex.By]
		ra.Excluded = append(ra.Excluded, ex)
	}
	for _, name := range model.Sorted(denied) {
		if !slices.ContainsFunc(ra.Tools, func(t ProvidedTool) bool { return t.Name == name }) {
			ra.DeniedTools = append(ra.DeniedTools, DeniedTool{Name: name, Group: denied[name]})
		}
	}
}

// constraints collects the limits the agent's behaviors' parameters put on
// the calls of its effective tools.
func (c *compilation) constraints(ra *Agent) {
	cfg := c.prog.Config
	for _, b := range ra.Behaviors {
		bt := cfg.BehaviorTypes[b.Type]
		for _, pname := range model.Sorted(bt.Params) {
			r := bt.Params[pname].Restricts
			if r == nil {
				continue
			}
			values := paramStrings(b.Params[pname])
			for _, tool := range r.Tools {
				if !slices.ContainsFunc(ra.Effective, func(t ProvidedTool) bool { return t.Name == tool && t.Behavior == b.Type }) {
					continue
				}
				ra.Constraints = append(ra.Constraints, rules.Constraint{Tool: tool, Field: r.Field, Check: r.Check, Values: values, Behavior: b.Type, Param: pname})
			}
		}
	}
}

// paramStrings is a list parameter's values as strings.
func paramStrings(v any) []string {
	out := []string{}
	list, _ := v.([]any)
	for _, x := range list {
		out = append(out, fmt.Sprint(x))
	}
	return out
}

// strictness records the order of the options of the agent's settings
// whose category declares one.
func (c *compilation) strictness(ra *Agent) {
	for _, rc := range ra.Behavior {
		cat := c.prog.Config.Categories[rc.Name]
		for _, s := range rc.Settings {
			if order := cat.Settings[s.Name].Strictness; len(order) > 0 {
				if ra.Strictness == nil {
					ra.Strictness = map[string][]string{}
				}
				ra.Strictness[rc.Name+"."+s.Name] = order
			}
		}
	}
}

// expandFamilies adds to every tool family the runtimes' names of its
// tools (an MCP server's mcp__db__query for query): a rule written for
// charter's tool fires on the call a runtime reports, through the same
// table eval and export use. A family that already lists one of a
// runtime's names for a tool has chosen them (the standard library's edit
// family lists Edit, not Write, for write_file) and gets none added.
func expandFamilies(families map[string][]string, runtimes map[string]*model.Runtime) {
	for fam, members := range families {
		out := slices.Clone(members)
		for _, rt := range model.Sorted(runtimes) {
			for _, tool := range members {
				names := runtimes[rt].RuntimeNames(tool)
				if len(names) == 0 || slices.ContainsFunc(names, func(n string) bool { return slices.Contains(members, n) }) {
					continue
				}
				for _, n := range names {
					if !slices.Contains(out, n) {
						out = append(out, n)
					}
				}
			}
		}
		families[fam] = out
	}
}

// runtimeTools inverts the runtimes' tables: runtime -> name -> tool.
func runtimeTools(runtimes map[string]*model.Runtime) map[string]map[string]string {
	out := map[string]map[string]string{}
	for name, rt := range runtimes {
		if len(rt.Tools) > 0 {
			out[name] = rt.Tools
		}
	}
	return out
}
