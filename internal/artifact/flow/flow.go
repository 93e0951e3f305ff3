// Package flow resolves a declared flow (model.Flow): the steps an
// orchestrator runs one agent at a time, and what passes between them
// through the shared context. For every step it works out what the
// step's agent needs (its agent type's required runtime variables) and
// what the context is sure to hold when the step runs, on every path from
// the first step: the flow's inputs and what the steps before it pass on.
package flow

import (
	"slices"

	"github.com/charter-dev/charter/internal/config/model"
)

// Flow is a flow resolved: defaults filled in, needs and gaps worked out.
type Flow struct {
	Name          string   `json:"name"`
	Description   string   `json:"description,omitempty"`
	Inputs        []string `json:"inputs"`
	MaxIterations int      `json:"max_iterations,omitempty"`
	Steps         []Step   `json:"steps"`
}

// Step is one step resolved.
type Step struct {
	Name  string `json:"name"`
	Agent string `json:"agent"`
	// Runs is "once" or "every_time".
	Runs string `json:"runs"`
	// Passes are the output keys the step puts into the shared context.
	Passes []string `json:"passes"`
	// sure are the keys of Passes the output schema requires: the ones
	// the context is sure to get.
	sure []string
	// Needs are the required runtime variables of the agent's type.
	Needs []string         `json:"needs"`
	Next  []model.FlowNext `json:"next,omitempty"`
	// Missing are the needs the context may lack when the step runs: no
	// input provides them, and on some path to the step no step passes
	// them as a property its agent's output schema requires. Sorted.
	Missing []string `json:"-"`
	// Reachable is false for a step no path from the first one reaches.
	Reachable bool `json:"-"`
}

// Resolve resolves the flow name of cfg, which must have validated.
func Resolve(cfg *model.Config, name string) *Flow {
	f := cfg.Flows[name]
	out := &Flow{Name: name, Description: f.Description, Inputs: sorted(f.Inputs), MaxIterations: f.MaxIterations}
	index := map[string]int{}
	for i, s := range f.Steps {
		if _, dup := index[s.Name]; !dup {
			index[s.Name] = i
		}
		rs := Step{Name: s.Name, Agent: s.Agent, Runs: s.Runs, Passes: slices.Clone(s.Passes), Next: s.Next}
		if rs.Runs == "" {
			rs.Runs = "every_time"
		}
		a := cfg.Agents[s.Agent]
		if a != nil && rs.Passes == nil {
			props, _ := a.Output["properties"].(map[string]any)
			rs.Passes = model.Sorted(props)
		}
		if rs.Passes == nil {
			rs.Passes = []string{}
		}
		if a != nil {
			req, _ := a.Output["required"].([]any)
			for _, k := range rs.Passes {
				if slices.Contains(req, any(k)) {
					rs.sure = append(rs.sure, k)
				}
			}
		}
		rs.Needs = []string{}
		if a != nil {
			if t := cfg.AgentTypes[a.Type]; t != nil {
				for _, v := range model.Sorted(t.Variables) {
					if t.Variables[v].Required {
						rs.Needs = append(rs.Needs, v)
					}
				}
			}
		}
		out.Steps = append(out.Steps, rs)
	}
	out.available(index)
	return out
}

// available works out, for every step, the context keys present on every
// path from the first step to it (a must-analysis run to its fixpoint),
// and from that the step's Missing needs.
func (f *Flow) available(index map[string]int) {
	n := len(f.Steps)
	if n == 0 {
		return
	}
	preds := make([][]int, n)
	for i, s := range f.Steps {
		for _, nx := range s.Next {
			if j, ok := index[nx.Step]; ok {
				preds[j] = append(preds[j], i)
			}
		}
	}
	// avail[i] nil means "not reached yet": the top of the lattice.
	avail := make([]map[string]bool, n)
	avail[0] = set(f.Inputs)
	for changed := true; changed; {
		changed = false
		for j := 1; j < n; j++ {
			var in map[string]bool
			for _, i := range preds[j] {
				if avail[i] == nil {
					continue
				}
				out := set(f.Steps[i].sure)
				for k := range avail[i] {
					out[k] = true
				}
				if in == nil {
					in = out
					continue
				}
				for k := range in {
					if !out[k] {
						delete(in, k)
					}
				}
			}
			if in != nil && (avail[j] == nil || len(in) != len(avail[j])) {
				avail[j], changed = in, true
			}
		}
	}
	for i := range f.Steps {
		s := &f.Steps[i]
		s.Reachable = avail[i] != nil
		if !s.Reachable {
			continue
		}
		for _, need := range s.Needs {
			if !avail[i][need] {
				s.Missing = append(s.Missing, need)
			}
		}
	}
}

func set(names []string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return slices.Compact(out)
}
