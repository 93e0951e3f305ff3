package team

import (
	"maps"
	"slices"

	"github.com/charter-dev/charter/internal/config/model"
)

// Kept is how many of the highest and the lowest pairs a Pairing keeps,
// above FullMatrixMax agents: an update that drops the pairs of a few
// edited agents from them still knows the Extremes best.
const Kept = 200

// Pairing is what team.json's pair figures are made of: the sum of every
// pair's score and of each department's pairs, in ten-thousandths, and,
// above FullMatrixMax agents, the Kept highest and lowest pairs, best
// first (always the true first ones of every pair). Plain data: an
// incremental build keeps it on disk, and Update turns it into the
// figures of a team of which a few agents changed, without scoring the
// millions of pairs again.
type Pairing struct {
	Agents      int
	Sum         int64
	Departments map[string]int64
	Top, Lowest []Pair
}

// finish fills in t's figures from p, and what reads each agent alone
// (index).
func (p *Pairing) finish(t *Team, ids []string, members map[string]Member) {
	n := len(ids)
	if n >= 2 {
		avg := mean(p.Sum, n*(n-1)/2)
		t.Average = &avg
	}
	if t.Compatibility == nil {
		t.Pairs = n * (n - 1) / 2
		t.Top, t.Lowest = p.Top[:min(len(p.Top), Extremes)], p.Lowest[:min(len(p.Lowest), Extremes)]
	}
	t.Departments = map[string]Department{}
	for _, id := range ids {
		if name := members[id].Department; name != "" {
			d := t.Departments[name]
			d.Agents = append(d.Agents, id)
			t.Departments[name] = d
		}
	}
	for name, d := range t.Departments {
		m := len(d.Agents)
		d.Pairs = m * (m - 1) / 2
		if d.Pairs > 0 {
			avg := mean(p.Departments[name], d.Pairs)
			d.Average = &avg
		}
		t.Departments[name] = d
	}
	index(t, ids, members)
}

// Update returns the team of members now, where the members of changed
// are all that may differ from old, the members p was made of: it
// scores again only the pairs of a changed agent. When the agents are
// not the same ones, FullMatrixMax or fewer (every pair is written then,
// and scoring them costs little), or fewer than Extremes of the pairs p
// keeps are still known to be the extremes, it scores every pair, as
// BuildMembers does. Either way the team equals BuildMembers(now)'s.
func (p *Pairing) Update(old, now map[string]Member, changed []string) (*Team, *Pairing) {
	if t, np, ok := p.update(old, now, changed); ok {
		return t, np
	}
	return BuildMembers(now)
}

// update is Update, false where Update scores every pair.
func (p *Pairing) update(old, now map[string]Member, changed []string) (*Team, *Pairing, bool) {
	ids := model.Sorted(now)
	if p == nil || len(ids) <= FullMatrixMax || p.Agents != len(ids) || len(old) != len(now) {
		return nil, nil, false
	}
	for _, id := range ids {
		if _, ok := old[id]; !ok {
			return nil, nil, false
		}
	}
	edited := map[string]bool{}
	for _, id := range changed {
		if _, ok := now[id]; ok {
			edited[id] = true
		}
	}
	np := &Pairing{Agents: p.Agents, Sum: p.Sum, Departments: maps.Clone(p.Departments)}
	top, low := &extremes{higher: true}, &extremes{}
	for _, c := range slices.Sorted(maps.Keys(edited)) {
		oc, nc := old[c], now[c]
		for _, x := range ids {
			if x == c || edited[x] && x < c { // each pair once
				continue
			}
			ox, nx := old[x], now[x]
			was, is := oc.Traits.units(ox.Traits), nc.Traits.units(nx.Traits)
			np.Sum += is - was
			if oc.Department != "" && oc.Department == ox.Department {
				np.Departments[oc.Department] -= was
			}
			if nc.Department != "" && nc.Department == nx.Department {
				np.Departments[nc.Department] += is
			}
			a, b := min(c, x), max(c, x)
			top.offer(fromUnits(is), a, b)
			low.offer(fromUnits(is), a, b)
		}
	}
	for name := range np.Departments {
		if np.Departments[name] == 0 {
			delete(np.Departments, name) // a department no pair is in any more
		}
	}
	var ok1, ok2 bool
	np.Top, ok1 = update(p.Top, top, edited)
	np.Lowest, ok2 = update(p.Lowest, low, edited)
	if !ok1 || !ok2 {
		return nil, nil, false
	}
	t := newTeam(ids)
	np.finish(t, ids, now)
	return t, np, true
}

// update returns the extremes of the pairs now: those of kept (the
// first of the pairs before) with none of an edited agent, and the best
// of the edited agents' pairs, fresh, as far as they are still known to
// be the first (every pair kept did not rank after the last of kept),
// and false when fewer than Extremes are.
func update(kept []Pair, fresh *extremes, edited map[string]bool) ([]Pair, bool) {
	if len(kept) == 0 {
		return nil, false
	}
	last := kept[len(kept)-1]
	all := slices.DeleteFunc(slices.Clone(kept), func(p Pair) bool { return edited[p.A] || edited[p.B] })
	all = append(all, fresh.pairs...)
	slices.SortFunc(all, fresh.compare)
	known := 0
	for known < len(all) && !fresh.before(last, all[known]) {
		known++
	}
	all = all[:min(known, Kept)]
	return all, len(all) >= Extremes
}
