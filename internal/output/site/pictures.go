package site

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/charter-dev/charter/internal/artifact/team"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/repo/diff"
	"github.com/charter-dev/charter/internal/repo/history"
)

// HeatmapMax is the number of agents up to which the heatmap has a cell
// for every pair; above it, a cell for every pair of departments.
const HeatmapMax = 40

// LowestPairs is how many of the lowest-scoring pairs the compatibility
// page lists.
const LowestPairs = 20

// heatmap is the compatibility heatmap as the template draws it.
type heatmap struct {
	// Departments is set when the cells are pairs of departments.
	Departments bool
	W, H        int
	Rows, Cols  []label
	Cells       []cell
}

type label struct {
	X, Y int
	Text string
	Href string
}

type cell struct {
	X, Y, Size int
	Fill       string
	// Title is the cell's breakdown, shown on hover.
	Title string
	A, B  string
}

// pair is two agents and their score.
type pair struct {
	A, B  string
	Score team.Score
}

const cellSize = 22

// margins returns the room the row labels (left) and the slanted column
// labels (top) need, from their length: 11px text is about 6.5px a
// character.
func margins(rows, cols []string) (side, top int) {
	longest := func(ls []string) int {
		n := 0
		for _, l := range ls {
			n = max(n, utf8.RuneCountInString(l))
		}
		return n
	}
	return longest(rows)*13/2 + 16, longest(cols)*5 + 20
}

// compatibility scores every pair of agents once and returns the heatmap
// (per pair, or per pair of departments when there are more than
// HeatmapMax agents) and the lowest-scoring pairs.
func compatibility(agents map[string]*model.Agent) (*heatmap, []pair) {
	ids := model.Sorted(agents)
	var lowest []pair
	keep := func(p pair) {
		if len(lowest) == LowestPairs && p.Score.Score >= lowest[len(lowest)-1].Score.Score {
			return
		}
		i, _ := slices.BinarySearchFunc(lowest, p, func(x, y pair) int { return cmp.Compare(x.Score.Score, y.Score.Score) })
		// Equal scores keep the order the pairs were met in (ids).
		for i < len(lowest) && lowest[i].Score.Score == p.Score.Score {
			i++
		}
		lowest = slices.Insert(lowest, i, p)
		if len(lowest) > LowestPairs {
			lowest = lowest[:LowestPairs]
		}
	}
	if len(ids) <= HeatmapMax {
		h := &heatmap{}
		n := len(ids)
		labelSide, labelTop := margins(ids, ids)
		h.W = labelSide + max(n-1, 1)*cellSize + 10
		h.H = labelTop + max(n-1, 1)*cellSize + 10
		for i, id := range ids {
			if i < n-1 {
				h.Rows = append(h.Rows, label{X: labelSide - 6, Y: labelTop + i*cellSize + cellSize/2 + 4, Text: id, Href: "agents/" + id + ".html"})
			}
			if i > 0 {
				h.Cols = append(h.Cols, label{X: labelSide + (i-1)*cellSize + cellSize/2 + 4, Y: labelTop - 6, Text: id, Href: "agents/" + id + ".html"})
			}
		}
		for i, a := range ids {
			for j := i + 1; j < n; j++ {
				b := ids[j]
				s := team.Compatibility(agents[a].Personality, agents[b].Personality)
				keep(pair{a, b, s})
				h.Cells = append(h.Cells, cell{X: labelSide + (j-1)*cellSize, Y: labelTop + i*cellSize, Size: cellSize - 2,
					Fill: scoreColor(s.Score), Title: breakdown(a, b, s), A: a, B: b})
			}
		}
		return h, lowest
	}

	// Per department: the mean and the lowest score of the pairs between
	// (or within) two departments.
	var depts []string
	of := make([]int, len(ids))
	index := map[string]int{}
	for _, id := range ids {
		d := deptName(agents[id].Department)
		if _, ok := index[d]; !ok {
			index[d] = 0
			depts = append(depts, d)
		}
	}
	slices.Sort(depts)
	for i, d := range depts {
		index[d] = i
	}
	for i, id := range ids {
		of[i] = index[deptName(agents[id].Department)]
	}
	nd := len(depts)
	type agg struct {
		sum   float64
		n     int
		low   pair
		start bool
	}
	aggs := make([]agg, nd*nd)
	for i, a := range ids {
		pa := agents[a].Personality
		for j := i + 1; j < len(ids); j++ {
			b := ids[j]
			s := team.Compatibility(pa, agents[b].Personality)
			keep(pair{a, b, s})
			x, y := min(of[i], of[j]), max(of[i], of[j])
			g := &aggs[x*nd+y]
			g.sum += s.Score
			g.n++
			if !g.start || s.Score < g.low.Score.Score {
				g.low, g.start = pair{a, b, s}, true
			}
		}
	}
	h := &heatmap{Departments: true}
	labelSide, labelTop := margins(depts, depts)
	h.W = labelSide + nd*cellSize*2 + 10
	h.H = labelTop + nd*cellSize*2 + 10
	size := cellSize * 2
	for i, d := range depts {
		h.Rows = append(h.Rows, label{X: labelSide - 6, Y: labelTop + i*size + size/2 + 4, Text: d})
		h.Cols = append(h.Cols, label{X: labelSide + i*size + size/2 + 4, Y: labelTop - 6, Text: d})
	}
	for x := range nd {
		for y := x; y < nd; y++ {
			g := aggs[x*nd+y]
			if g.n == 0 {
				continue
			}
			mean := g.sum / float64(g.n)
			title := fmt.Sprintf("%s × %s: mean %.2f over %d pairs; lowest %.2f (%s × %s: Big Five %.2f, collaboration %.2f, conflict approach %.2f)",
				depts[x], depts[y], mean, g.n, g.low.Score.Score, g.low.A, g.low.B, g.low.Score.BigFive, g.low.Score.Collaboration, g.low.Score.Conflict)
			h.Cells = append(h.Cells, cell{X: labelSide + y*size, Y: labelTop + x*size, Size: size - 2, Fill: scoreColor(mean), Title: title, A: depts[x], B: depts[y]})
		}
	}
	return h, lowest
}

func deptName(d string) string {
	if d == "" {
		return "(no department)"
	}
	return d
}

// breakdown is one pair's score in words.
func breakdown(a, b string, s team.Score) string {
	return fmt.Sprintf("%s × %s: %.2f (Big Five %.2f, collaboration %.2f, conflict approach %.2f)", a, b, s.Score, s.BigFive, s.Collaboration, s.Conflict)
}

// scoreColor maps a score from 0 to 1 to a colour from red through amber
// to green.
func scoreColor(s float64) string {
	s = math.Max(0, math.Min(1, s))
	type rgb struct{ r, g, b float64 }
	stops := []struct {
		at float64
		c  rgb
	}{{0, rgb{192, 57, 43}}, {0.5, rgb{243, 156, 18}}, {0.75, rgb{241, 220, 90}}, {1, rgb{39, 174, 96}}}
	for i := 1; i < len(stops); i++ {
		if s <= stops[i].at {
			lo, hi := stops[i-1], stops[i]
			t := (s - lo.at) / (hi.at - lo.at)
			mix := func(x, y float64) int { return int(math.Round(x + (y-x)*t)) }
			return fmt.Sprintf("#%02x%02x%02x", mix(lo.c.r, hi.c.r), mix(lo.c.g, hi.c.g), mix(lo.c.b, hi.c.b))
		}
	}
	return "#27ae60"
}

// timeline is an agent's versions as the template draws them.
type timeline struct {
	W, H, Y int
	Points  []point
}

type point struct {
	X      int
	Class  string
	Label  string
	Title  string
	Anchor string
}

// versionTimeline places an agent's versions, oldest first, at equal
// steps on a line; each is classed by the widest effect of its changes.
func versionTimeline(vs []history.Version) *timeline {
	const step, pad = 90, 40
	t := &timeline{W: pad*2 + max(len(vs)-1, 0)*step, H: 70, Y: 28}
	for i, v := range vs {
		t.Points = append(t.Points, point{X: pad + i*step, Class: versionClass(v), Label: fmt.Sprintf("v%d", v.Number),
			Title:  fmt.Sprintf("v%d %s %s: %s", v.Number, v.Entry.Commit.String()[:12], v.Entry.Author.When.Format("2006-01-02 -0700"), v.Summary),
			Anchor: fmt.Sprintf("v%d", v.Number)})
	}
	return t
}

// versionClass is "widened", "narrowed", "neutral", "created" or
// "removed".
func versionClass(v history.Version) string {
	switch {
	case v.Removed:
		return "removed"
	case v.Changes == nil:
		return "created"
	}
	class := diff.Neutral
	for _, c := range v.Changes {
		if c.Effect == diff.Widened {
			return diff.Widened
		}
		if c.Effect == diff.Narrowed {
			class = diff.Narrowed
		}
	}
	return class
}

// bars is the diff page's picture of one agent's changes: a bar per
// effect, as long as its count.
type bars struct {
	W, H int
	Bars []bar
}

type bar struct {
	Y, W  int
	N     int
	Class string
	Text  string
}

func effectBars(widened, narrowed, neutral, most int) *bars {
	const full, row = 260, 18
	b := &bars{W: full + 140, H: row * 3}
	for i, x := range []struct {
		n     int
		class string
	}{{widened, diff.Widened}, {narrowed, diff.Narrowed}, {neutral, diff.Neutral}} {
		w := 0
		if most > 0 {
			w = int(math.Round(float64(full) * float64(x.n) / float64(most)))
		}
		if x.n > 0 {
			w = max(w, 3)
		}
		b.Bars = append(b.Bars, bar{Y: i * row, W: w, N: x.n, Class: x.class, Text: fmt.Sprintf("%d %s", x.n, x.class)})
	}
	return b
}

// relation is a relation's name in words.
func relation(r string) string { return strings.ReplaceAll(r, "_", " ") }
