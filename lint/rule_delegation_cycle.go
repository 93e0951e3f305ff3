package lint

import (
	"slices"
	"strings"

	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/output/diag"
)

var delegationCycle = &Rule{
	ID:       "delegation-cycle",
	Severity: diag.Warning,
	Summary:  "agents can delegate work to each other in a cycle",
	Doc: doc(`can_delegate_to lets an agent hand a goal on. When delegation can come back round (ann to bob, bob to cy, cy to ann, or an agent to itself), a goal no one wants can circle for ever, each agent passing it on. The rule finds every group of agents that can delegate round to each other (a strongly connected component) and reports it once, at the agent with the smallest id, with one cycle as an example. Make delegation flow one way: down the hierarchy, or to specialists who do not delegate back.`,
		`agents: ann: authority: can_delegate_to: ["bob"]
agents: bob: authority: can_delegate_to: ["ann"]`,
		`agents: ann: authority: can_delegate_to: ["bob"]
agents: bob: authority: can_delegate_to: []`),
	Run: func(p *Pass) {
		agents := p.Config.Agents
		ids := model.Sorted(agents)
		// Tarjan's strongly connected components, iteratively.
		idx := map[string]int{}
		low := map[string]int{}
		on := map[string]bool{}
		var stack []string
		n := 0
		type frame struct {
			id   string
			next int
		}
		for _, root := range ids {
			if _, seen := idx[root]; seen {
				continue
			}
			work := []frame{{id: root}}
			idx[root], low[root] = n, n
			n++
			stack = append(stack, root)
			on[root] = true
			for len(work) > 0 {
				f := &work[len(work)-1]
				succ := agents[f.id].Authority.CanDelegateTo
				if f.next < len(succ) {
					w := succ[f.next]
					f.next++
					if _, ok := agents[w]; !ok {
						continue
					}
					if _, seen := idx[w]; !seen {
						idx[w], low[w] = n, n
						n++
						stack = append(stack, w)
						on[w] = true
						work = append(work, frame{id: w})
					} else if on[w] {
						low[f.id] = min(low[f.id], idx[w])
					}
					continue
				}
				v := f.id
				work = work[:len(work)-1]
				if len(work) > 0 {
					parent := work[len(work)-1].id
					low[parent] = min(low[parent], low[v])
				}
				if low[v] != idx[v] {
					continue
				}
				var comp []string
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					on[w] = false
					comp = append(comp, w)
					if w == v {
						break
					}
				}
				if len(comp) > 1 || slices.Contains(agents[v].Authority.CanDelegateTo, v) {
					reportDelegationCycle(p, agents, comp)
				}
			}
		}
	},
}

// reportDelegationCycle reports one strongly connected component, with a
// shortest cycle through its smallest id as the example.
func reportDelegationCycle(p *Pass, agents map[string]*model.Agent, comp []string) {
	first := slices.Min(comp)
	in := map[string]bool{}
	for _, id := range comp {
		in[id] = true
	}
	// Breadth-first from first back to first, inside the component.
	prev := map[string]string{}
	queue := []string{first}
	var cycle []string
	for len(queue) > 0 && cycle == nil {
		cur := queue[0]
		queue = queue[1:]
		for _, w := range agents[cur].Authority.CanDelegateTo {
			if !in[w] {
				continue
			}
			if w == first {
				for x := cur; x != first; x = prev[x] {
					cycle = append(cycle, x)
				}
				cycle = append(cycle, first)
				slices.Reverse(cycle)
				cycle = append(cycle, first)
				break
			}
			if _, seen := prev[w]; !seen {
				prev[w] = cur
				queue = append(queue, w)
			}
		}
	}
	msg := "agents can delegate to each other in a cycle: " + strings.Join(cycle, " -> ")
	if len(comp) > len(cycle)-1 {
		others := slices.Clone(comp)
		slices.Sort(others)
		msg += " (agents " + strings.Join(others, ", ") + " all delegate round to each other)"
	}
	p.Reportf([]string{"agents", first, "authority", "can_delegate_to"}, "%s; make delegation flow one way", msg)
}
