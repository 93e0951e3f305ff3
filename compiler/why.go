package compiler

import (
	"slices"

	"github.com/charter-dev/charter/internal/config/fieldpath"
)

// Step is one layer that sets (or could set) a behavior setting of an
// agent: what charter why lists.
type Step struct {
	Layer  string   `json:"layer"`
	Name   string   `json:"name,omitempty"`
	Value  string   `json:"value"`
	Path   string   `json:"path"`
	Pos    Position `json:"pos"`
	Chosen bool     `json:"chosen"`
}

// Steps lists, for agent a's behavior setting category.setting, the
// category's default and then every layer that sets it, in the order they
// apply, marking the one whose value the agent has. It returns nil when the
// category has no such setting.
func (p *Program) Steps(a *Agent, category, setting string) []Step {
	cat, ok := p.Config.Categories[category]
	if !ok {
		return nil
	}
	s, ok := cat.Settings[setting]
	if !ok {
		return nil
	}
	def := fieldpath.Path{"categories", category, "settings", setting, "default"}
	steps := []Step{{Layer: "default", Value: s.Default.String(), Path: def.String(), Pos: p.Locate(def...)}}
	for _, l := range p.Layers(a) {
		ch, ok := l.Behavior[category][setting]
		if !ok {
			continue
		}
		path := fieldpath.Path(append(slices.Clone(l.Path), category, setting))
		steps = append(steps, Step{Layer: l.Origin.Layer, Name: l.Origin.Name, Value: ch.String(), Path: path.String(), Pos: p.Locate(path...)})
	}
	rs, _ := a.Setting(category, setting)
	for i := range steps {
		steps[i].Chosen = steps[i].Path == rs.Origin.Path
	}
	return steps
}
