package lint

import "github.com/charter-dev/charter/internal/config/model"

// selection is one place that selects an option: a preset, an agent type or
// an agent, with the path of its behavior struct.
type selection struct {
	path     []string
	behavior model.Behavior
}

// selections lists every behavior selection of the model, in a stable
// order: presets, agent types, agents, each by name.
func selections(cfg *model.Config) []selection {
	var out []selection
	for _, n := range model.Sorted(cfg.Presets) {
		out = append(out, selection{[]string{"presets", n, "behavior"}, cfg.Presets[n].Behavior})
	}
	for _, n := range model.Sorted(cfg.AgentTypes) {
		out = append(out, selection{[]string{"agentTypes", n, "behavior"}, cfg.AgentTypes[n].Behavior})
	}
	for _, n := range model.Sorted(cfg.Agents) {
		out = append(out, selection{[]string{"agents", n, "behavior"}, cfg.Agents[n].Behavior})
	}
	return out
}
