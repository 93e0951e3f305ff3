// Package compiler resolves a validated repository into what runtimes use:
// per agent, the behavior with every setting resolved (category default <-
// type presets <- type behavior <- agent presets <- agent behavior), the
// behaviors with their parameters' defaults, the merged tool list, the
// flattened rule profile and the runtime variables; and it remembers where
// every resolved value came from, for `charter why` and `render --sources`.
package compiler

import (
	"cuelang.org/go/cue/token"
	"fmt"
	"slices"

	"cuelang.org/go/cue"

	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/rules"
)

// Position is a place in a source file; File is empty when unknown.
type Position struct {
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
}

// String formats p as file:line:col, or "" when unknown.
func (p Position) String() string {
	if p.File == "" {
		return ""
	}
	if p.Line == 0 {
		return p.File
	}
	if p.Column == 0 {
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Column)
}

// Origin says where a resolved value came from.
type Origin struct {
	// Layer is "default", "type-preset", "type", "agent-preset" or "agent".
	Layer string `json:"layer"`
	// Name is the preset, type or agent that set the value ("" for default).
	Name string `json:"name,omitempty"`
	// Path is the CUE path of the value that won, in dot notation.
	Path string `json:"path"`
	// labels is Path as labels, for looking its position up.
	labels []string
}

// Labels returns the CUE path of the value that won, as labels.
func (o Origin) Labels() []string { return slices.Clone(o.labels) }

// Where returns the source position of the value an origin names. It is
// looked up on demand: only why and render --sources need it.
func (p *Program) Where(o Origin) Position { return p.locate.Pos(o.labels...) }

// Describe says where the value came from in words, with its position.
func (p *Program) Describe(o Origin) string { return o.describe(p.Where(o)) }

func (o Origin) describe(pos Position) string {
	var s string
	switch o.Layer {
	case "default":
		s = "the category's default"
	case "type-preset":
		s = fmt.Sprintf("preset %s of the agent type", o.Name)
	case "type":
		s = fmt.Sprintf("agent type %s", o.Name)
	case "agent-preset":
		s = fmt.Sprintf("preset %s of the agent", o.Name)
	case "agent":
		s = "the agent's own override"
	default:
		s = o.Layer
	}
	if p := pos.String(); p != "" {
		s += " (" + p + ")"
	}
	return s
}

// Program is a compiled repository.
type Program struct {
	Config *model.Config
	// Agents in id order.
	Agents []*Agent
	// Profiles are the flattened profiles by name.
	Profiles map[string]*rules.Profile
	// RuleOrigins says where each rule of each flattened profile comes
	// from, by profile name and rule id.
	RuleOrigins map[string]map[string]RuleOrigin
	// CategoryOrder and SettingOrder give prompt order.
	CategoryOrder []string
	SettingOrder  map[string][]string
	// RuntimeTools maps, per runtime, the runtime's name for a tool to
	// charter's tool.
	RuntimeTools map[string]map[string]string
	locate       *Locator
}

// Categories returns the categories that agents of type t carry, in prompt
// order: the type's list when it has one, else every category.
func (p *Program) Categories(t *model.AgentType) []string {
	if t == nil || t.Categories == nil {
		return p.CategoryOrder
	}
	return t.Categories
}

// ReleaseSource lets go of the CUE values the program was compiled from,
// so that their memory can be reclaimed when only the resolved model is
// needed (a build of thousands of agents holds hundreds of megabytes of
// them). Locate and Where then find no position.
func (p *Program) ReleaseSource() { p.locate = nil }

// Locate returns the source position of a CUE path (user files first, then
// the standard library).
func (p *Program) Locate(path ...string) Position { return p.locate.Pos(path...) }

// Column returns pos's column in characters (Unicode code points), as
// every Position of the program counts them, when pos is in a user file;
// CUE's byte column otherwise, or after ReleaseSource.
func (p *Program) Column(pos token.Pos) int {
	return p.locate.chars(Position{File: pos.Filename(), Line: pos.Line(), Column: pos.Column()}).Column
}

// Compile resolves every agent and profile. It expects a repository that
// validated without errors; the diagnostics it returns are problems only
// compilation finds (a tool provided twice, an undeclared placeholder).
func Compile(repo *load.Repo, cfg *model.Config) (*Program, []diag.Diagnostic) {
	c := &compilation{
		prog: &Program{Config: cfg, Profiles: map[string]*rules.Profile{}, RuleOrigins: map[string]map[string]RuleOrigin{}, SettingOrder: map[string][]string{},
			locate: NewLocator(repo)},
	}
	c.order(repo)
	c.prog.RuntimeTools = runtimeTools(cfg.Runtimes)
	for _, name := range model.Sorted(cfg.Profiles) {
		c.prog.Profiles[name], c.prog.RuleOrigins[name] = c.flatten(name)
	}
	for _, id := range model.Sorted(cfg.Agents) {
		c.prog.Agents = append(c.prog.Agents, c.agent(id))
	}
	c.checkTemplates()
	c.checkInjections()
	c.checkConditions()
	c.checkCooldowns()
	return c.prog, diag.Sort(c.diags)
}

type compilation struct {
	prog  *Program
	diags []diag.Diagnostic
}

func (c *compilation) errorf(rule string, path []string, format string, args ...any) {
	pos := c.prog.locate.Pos(path...)
	c.diags = append(c.diags, diag.Diagnostic{File: pos.File, Line: pos.Line, Column: pos.Column,
		Severity: diag.Error, Rule: rule, Path: dotted(path), Message: dotted(path) + ": " + fmt.Sprintf(format, args...)})
}

// order records categories in prompt order and settings in declaration
// order (as CUE iterates them: the standard library's first).
func (c *compilation) order(repo *load.Repo) {
	cfg := c.prog.Config
	c.prog.CategoryOrder = cfg.CategoryNames()
	for _, name := range c.prog.CategoryOrder {
		var order []string
		seen := map[string]bool{}
		for _, root := range []cue.Value{repo.Schema.Stdlib, repo.Value} {
			s := root.LookupPath(cue.MakePath(cue.Str("categories"), cue.Str(name), cue.Str("settings")))
			it, err := s.Fields()
			if err != nil {
				continue
			}
			for it.Next() {
				l := it.Selector().Unquoted()
				if !seen[l] {
					seen[l] = true
					order = append(order, l)
				}
			}
		}
		// Settings the CUE walk missed (none expected) go last, sorted.
		for _, l := range model.Sorted(cfg.Categories[name].Settings) {
			if !seen[l] {
				order = append(order, l)
			}
		}
		c.prog.SettingOrder[name] = slices.DeleteFunc(order, func(l string) bool {
			_, ok := cfg.Categories[name].Settings[l]
			return !ok
		})
	}
}

// TypeDefault says where an agent's value at path (model, tools, skills,
// behaviors, below "agents.<id>") comes from its agent type: the type's
// position, whether the agent declares the path itself too, and ok false
// when the type declares nothing there.
func (p *Program) TypeDefault(a *Agent, path ...string) (pos Position, own bool, ok bool) {
	if a.Type == nil || len(path) == 0 {
		return Position{}, false, false
	}
	switch path[0] {
	case "model", "tools", "skills", "behaviors", "max_turns", "timeout":
	default:
		return Position{}, false, false
	}
	typePath := append([]string{"agentTypes", a.Decl.Type}, path...)
	if !p.locate.Declares(typePath...) {
		return Position{}, false, false
	}
	own = p.locate.Declares(append([]string{"agents", a.ID}, path...)...)
	return p.locate.Pos(typePath...), own, true
}
