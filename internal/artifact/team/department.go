package team

import (
	"cmp"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
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
// order) and returns the sums of the scores, of all pairs and of each
// department's. With full it keeps every score in t.Compatibility;
// without, only the Kept highest and lowest pairs, so that memory stays
// linear in the number of agents. Rows are scored in parallel; scores are
// whole numbers of ten-thousandths, whose sums are exact in any order.
func allPairs(t *Team, ids []string, members map[string]Member, tr []Traits, full bool) *Pairing {
	n := len(ids)
	if full {
		t.Compatibility = make([][]float64, n)
	}
	rowSum := make([]int64, n)
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
				var sum int64
				for j := i + 1; j < n; j++ {
					u := x.units(tr[j])
					sum += u
					if full {
						row = append(row, fromUnits(u))
						continue
					}
					top.offer(fromUnits(u), ids[i], ids[j])
					low.offer(fromUnits(u), ids[i], ids[j])
				}
				rowSum[i] = sum
				if full {
					t.Compatibility[i] = row
				}
			}
		})
	}
	wg.Wait()
	p := &Pairing{Agents: n, Departments: map[string]int64{}}
	if !full {
		p.Top, p.Lowest = merge(tops), merge(lows)
	}
	for _, s := range rowSum {
		p.Sum += s
	}
	byDept := map[string][]int{}
	for i, id := range ids {
		if d := members[id].Department; d != "" {
			byDept[d] = append(byDept[d], i)
		}
	}
	for name, ms := range byDept {
		var sum int64
		for k, i := range ms {
			for _, j := range ms[k+1:] {
				sum += tr[i].units(tr[j])
			}
		}
		p.Departments[name] = sum
	}
	return p
}

// extremes keeps the Kept highest (higher) or lowest pairs offered, best
// first; ties go by A, then B.
type extremes struct {
	higher bool
	pairs  []Pair
}

// before reports whether x ranks before y.
func (e *extremes) before(x, y Pair) bool {
	if x.Score != y.Score {
		return (x.Score > y.Score) == e.higher
	}
	return cmp.Or(cmp.Compare(x.A, y.A), cmp.Compare(x.B, y.B)) < 0
}

func (e *extremes) compare(x, y Pair) int {
	if e.before(x, y) {
		return -1
	}
	if e.before(y, x) {
		return 1
	}
	return 0
}

// offer offers pair a, b (a < b) scoring sc.
func (e *extremes) offer(sc float64, a, b string) {
	if len(e.pairs) == Kept {
		last := e.pairs[Kept-1].Score
		if (e.higher && sc < last) || (!e.higher && sc > last) {
			return
		}
	}
	p := Pair{A: a, B: b, Score: sc}
	k, _ := slices.BinarySearchFunc(e.pairs, p, e.compare)
	if k >= Kept {
		return
	}
	e.pairs = slices.Insert(e.pairs, k, p)
	if len(e.pairs) > Kept {
		e.pairs = e.pairs[:Kept]
	}
}

// merge is the Kept best pairs of es, which keep the same order.
func merge(es []extremes) []Pair {
	if len(es) == 0 {
		return []Pair{}
	}
	all := extremes{higher: es[0].higher, pairs: []Pair{}}
	for _, e := range es {
		all.pairs = append(all.pairs, e.pairs...)
	}
	slices.SortFunc(all.pairs, all.compare)
	return all.pairs[:min(len(all.pairs), Kept)]
}
