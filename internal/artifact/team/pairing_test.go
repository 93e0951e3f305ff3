package team

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestUpdateEqualsBuild: after every random edit of a few agents of a
// team above FullMatrixMax, Update (chained from the last update) gives
// the team BuildMembers gives from scratch, to the bit.
func TestUpdateEqualsBuild(t *testing.T) {
	for _, n := range []int{FullMatrixMax - 10, FullMatrixMax + 40} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			r := rand.New(rand.NewPCG(30, uint64(n)))
			members := Members(people(n))
			ids := make([]string, 0, n)
			for id := range members {
				ids = append(ids, id)
			}
			_, p := BuildMembers(members)
			updated := 0
			for step := range 40 {
				old := members
				members = maps.Clone(old)
				var changed []string
				for range 1 + r.IntN(3) {
					id := ids[r.IntN(len(ids))]
					changed = append(changed, id)
					members[id] = mutate(r, id, members[id], ids)
				}
				got, np, ok := p.update(old, members, changed)
				if ok {
					updated++
				} else {
					got, np = p.Update(old, members, changed)
				}
				want, _ := BuildMembers(members)
				if !sameJSON(t, want, got) {
					t.Fatalf("step %d, %v edited (-fresh +updated):\n%s", step, changed, cmp.Diff(want, got))
				}
				p = np
			}
			if want := 0; n <= FullMatrixMax && updated != want || n > FullMatrixMax && updated < 35 {
				t.Errorf("%d of 40 edits updated without scoring every pair", updated)
			}
		})
	}
}

// TestUpdateEdgesOfTheKnown: when the edited agents held every pair the
// Pairing kept, and their new pairs rank last, too few pairs are known
// to be the extremes: Update scores every pair again, and still equals
// BuildMembers.
func TestUpdateEdgesOfTheKnown(t *testing.T) {
	// Everyone alike but a0000 and a0500, who are unlike everyone: the
	// lowest pairs are all theirs. Then they become like everyone else.
	members := Members(crowd(FullMatrixMax + 1))
	for id, m := range members {
		m.Traits = Traits{O: 0.5, C: 0.5, E: 0.5, A: 0.5, S: 0.5}
		if id == "a0000" || id == "a0500" {
			m.Traits = Traits{O: 0, C: 1, E: 0, A: 0, S: 1, Col: 1, Con: 3}
		}
		members[id] = m
	}
	_, p := BuildMembers(members)
	old := members
	members = maps.Clone(old)
	for _, id := range []string{"a0000", "a0500"} {
		m := members[id]
		m.Traits = members["a0250"].Traits
		members[id] = m
	}
	if _, _, ok := p.update(old, members, []string{"a0000", "a0500"}); ok {
		t.Fatal("updated from extremes that are no longer known")
	}
	got, _ := p.Update(old, members, []string{"a0000", "a0500"})
	want, _ := BuildMembers(members)
	if !sameJSON(t, want, got) {
		t.Fatalf("(-fresh +updated):\n%s", cmp.Diff(want, got))
	}
}

// sameJSON reports whether two teams encode to the same bytes, as
// team.json holds them.
func sameJSON(t *testing.T, a, b *Team) bool {
	t.Helper()
	x, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	y, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Equal(x, y)
}

// mutate changes one thing of m at random.
func mutate(r *rand.Rand, id string, m Member, ids []string) Member {
	fl := func() float64 { return float64(r.IntN(101)) / 100 }
	switch r.IntN(6) {
	case 0:
		m.Traits.O, m.Traits.E = fl(), fl()
	case 1:
		m.Traits.Col, m.Traits.Con = uint8(r.IntN(4)), uint8(r.IntN(4))
	case 2:
		m.Department = []string{"", "d1", "d2", fmt.Sprintf("d%d", r.IntN(40))}[r.IntN(4)]
	case 3:
		m.ReportsTo = ids[r.IntN(len(ids))]
	case 4:
		m.CanDelegateTo = []string{ids[r.IntN(len(ids))], "nobody"}
	case 5:
		p := fl()
		m.Skills = []Skill{{ID: fmt.Sprintf("s%d", r.IntN(60)), Holder: Holder{Agent: id, Proficiency: p, Tier: "primary", Weight: WeightPrimary, Score: round(WeightPrimary * p)}}}
	}
	return m
}
