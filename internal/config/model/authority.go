package model

// ToolGroup is a named set of tools that tools.allowed and tools.denied may
// name: its tools, and those of the groups it holds.
type ToolGroup struct {
	Description string          `json:"description,omitempty"`
	Tools       map[string]bool `json:"tools,omitempty"`
	Groups      map[string]bool `json:"groups,omitempty"`
}

// GroupTools returns the tools group name stands for, its own and those of
// the groups it holds (cycles are cut), sorted; ok is false when no group
// has that name.
func (c *Config) GroupTools(name string) (tools []string, ok bool) {
	if _, ok := c.ToolGroups[name]; !ok {
		return nil, false
	}
	seen := map[string]bool{}
	set := map[string]bool{}
	var walk func(string)
	walk = func(g string) {
		if seen[g] {
			return
		}
		seen[g] = true
		tg, ok := c.ToolGroups[g]
		if !ok {
			return
		}
		for t := range tg.Tools {
			set[t] = true
		}
		for sub := range tg.Groups {
			walk(sub)
		}
	}
	walk(name)
	return Sorted(set), true
}

// Role is a name the authority fields may use beside agent ids: a role, a
// group of agents, a kind of work.
type Role struct {
	Description string `json:"description,omitempty"`
	// Members are the ids of the agents that hold the role.
	Members []string `json:"members,omitempty"`
	Owners  []string `json:"owners,omitempty"`
}
