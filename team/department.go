package team

import (
	"github.com/charter-dev/charter/model"
)

// Department is a department's agents and how well they fit together.
// Fields are declared in key order, as team.json is written.
type Department struct {
	Agents []string `json:"agents"`
	// Average is the mean compatibility of every pair of the department's
	// agents (nil for a department of one).
	Average *float64 `json:"average"`
	Pairs   int      `json:"pairs"`
}

// averages returns the mean score of all pairs of agents, and per
// department of the pairs within it, from the upper triangle tri of ids.
func averages(ids []string, agents map[string]*model.Agent, tri [][]float64) (*float64, map[string]Department) {
	deps := map[string]Department{}
	sums := map[string]float64{}
	var all float64
	var n int
	for i, a := range ids {
		da := agents[a].Department
		if da != "" {
			d := deps[da]
			d.Agents = append(d.Agents, a)
			deps[da] = d
		}
		for j, sc := range tri[i] {
			all += sc
			n++
			if b := ids[i+1+j]; da != "" && agents[b].Department == da {
				d := deps[da]
				d.Pairs++
				deps[da] = d
				sums[da] += sc
			}
		}
	}
	for name, d := range deps {
		if d.Pairs > 0 {
			avg := round(sums[name] / float64(d.Pairs))
			d.Average = &avg
			deps[name] = d
		}
	}
	if n == 0 {
		return nil, deps
	}
	avg := round(all / float64(n))
	return &avg, deps
}
