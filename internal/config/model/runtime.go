package model

// Runtime is an agent runtime's names for charter's tools.
type Runtime struct {
	Description string `json:"description,omitempty"`
	// Tools maps the runtime's name for a tool to charter's tool.
	Tools map[string]string `json:"tools,omitempty"`
	// Models maps a model id agents declare to the runtime's name for it.
	Models map[string]string `json:"models,omitempty"`
}

// RuntimeNames returns the runtime's names for a charter tool, sorted.
func (r *Runtime) RuntimeNames(tool string) []string {
	var out []string
	for _, name := range Sorted(r.Tools) {
		if r.Tools[name] == tool {
			out = append(out, name)
		}
	}
	return out
}
