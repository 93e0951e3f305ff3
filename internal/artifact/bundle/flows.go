package bundle

import (
	"github.com/charter-dev/charter/internal/artifact/flow"
	"github.com/charter-dev/charter/internal/config/model"
)

// flows is the content of flows.json: every flow resolved, by name, each
// step with its runs, what it passes on and what its agent needs.
func flows(cfg *model.Config) any {
	out := []*flow.Flow{}
	for _, name := range model.Sorted(cfg.Flows) {
		out = append(out, flow.Resolve(cfg, name))
	}
	return map[string]any{"flows": out}
}
