package team

import (
	"cmp"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/charter-dev/charter/internal/config/model"
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

// allPairs scores every pair of agents ids (tr their traits, in the same
// order) and returns the mean of all pairs and each department's agents
// with the mean of the pairs within it. With full it keeps every score in
// t.Compatibility; without, only the extremes in t.Top and t.Lowest, so
// that memory stays linear in the number of agents. Rows are scored in
// parallel; each row's sum, and each department's, is added in pair order.
func allPairs(t *Team, ids []string, agents map[string]*model.Agent, tr []traits, full bool) (*float64, map[string]Department) {
	n := len(ids)
	if full {
		t.Compatibility = make([][]float64, n)
	} else {
		t.Pairs = n * (n - 1) / 2
	}
	rowSum := make([]float64, n)
	workers := min(runtime.GOMAXPROCS(0), max(1, n/64))
	tops, lows := make([]extremes, workers), make([]extremes, workers)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			top, low := &tops[w], &lows[w]
			top.higher, low.higher = true, false
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				x := tr[i]
				var row []float64
				if full {
					row = make([]float64, 0, n-i-1)
				}
				var sum float64
				for j := i + 1; j < n; j++ {
					sc := x.score(tr[j])
					sum += sc
					if full {
						row = append(row, sc)
						continue
					}
					top.offer(sc, ids, i, j)
					low.offer(sc, ids, i, j)
				}
				rowSum[i] = sum
				if full {
					t.Compatibility[i] = row
				}
			}
		})
	}
	wg.Wait()
	if !full {
		t.Top, t.Lowest = merge(tops), merge(lows)
	}

	deps := map[string]Department{}
	members := map[string][]int{}
	for i, id := range ids {
		if d := agents[id].Department; d != "" {
			members[d] = append(members[d], i)
		}
	}
	for name, ms := range members {
		d := Department{Agents: make([]string, len(ms))}
		var sum float64
		for p, i := range ms {
			d.Agents[p] = ids[i]
			for _, j := range ms[p+1:] {
				sum += tr[i].score(tr[j])
				d.Pairs++
			}
		}
		if d.Pairs > 0 {
			avg := round(sum / float64(d.Pairs))
			d.Average = &avg
		}
		deps[name] = d
	}
	if n < 2 {
		return nil, deps
	}
	var all float64
	for _, s := range rowSum {
		all += s
	}
	avg := round(all / float64(n*(n-1)/2))
	return &avg, deps
}

// extremes keeps the Extremes highest (higher) or lowest pairs offered,
// best first; ties go by A, then B.
type extremes struct {
	higher bool
	pairs  []Pair
}

func (e *extremes) before(x, y Pair) bool {
	if x.Score != y.Score {
		return (x.Score > y.Score) == e.higher
	}
	return cmp.Or(cmp.Compare(x.A, y.A), cmp.Compare(x.B, y.B)) < 0
}

func (e *extremes) offer(sc float64, ids []string, i, j int) {
	if len(e.pairs) == Extremes {
		last := e.pairs[Extremes-1].Score
		if (e.higher && sc < last) || (!e.higher && sc > last) {
			return
		}
	}
	p := Pair{A: ids[i], B: ids[j], Score: sc}
	k, _ := slices.BinarySearchFunc(e.pairs, p, func(x, y Pair) int {
		if e.before(x, y) {
			return -1
		}
		return 1
	})
	if k >= Extremes {
		return
	}
	e.pairs = slices.Insert(e.pairs, k, p)
	if len(e.pairs) > Extremes {
		e.pairs = e.pairs[:Extremes]
	}
}

func merge(es []extremes) []Pair {
	if len(es) == 0 {
		return []Pair{}
	}
	all := extremes{higher: es[0].higher, pairs: []Pair{}}
	for _, e := range es {
		all.pairs = append(all.pairs, e.pairs...)
	}
	slices.SortFunc(all.pairs, func(x, y Pair) int {
		if all.before(x, y) {
			return -1
		}
		return 1
	})
	return all.pairs[:min(len(all.pairs), Extremes)]
}
