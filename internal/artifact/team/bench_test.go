package team

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/charter-dev/charter/internal/config/model"
)

// people is n agents with varied personalities, departments, a reports_to
// each and two skills, from a fixed seed (as internal/gen varies them).
func people(n int) map[string]*model.Agent {
	r := rand.New(rand.NewPCG(16, 16))
	fl := func() *float64 { x := float64(r.IntN(101)) / 100; return &x }
	out := map[string]*model.Agent{}
	for i := range n {
		a := &model.Agent{
			Department: fmt.Sprintf("d%d", r.IntN(20)),
			Personality: &model.Personality{Openness: fl(), Conscientiousness: fl(), Extraversion: fl(), Agreeableness: fl(), StressResponse: fl(),
				Collaboration:    []string{"independent", "pair", "team", ""}[r.IntN(4)],
				ConflictApproach: []string{"collaborate", "compromise", "accommodate", "compete", "avoid", ""}[r.IntN(6)]},
			Skills: model.SkillSet{Primary: []model.Skill{{ID: fmt.Sprintf("s%d", r.IntN(50)), Proficiency: fl()}},
				Secondary: []model.Skill{{ID: fmt.Sprintf("s%d", r.IntN(50))}}},
		}
		if i > 0 {
			a.Authority.ReportsTo = fmt.Sprintf("a%05d", r.IntN(i))
		}
		out[fmt.Sprintf("a%05d", i)] = a
	}
	return out
}

func benchBuild(b *testing.B, n int) {
	agents := people(n)
	b.ResetTimer()
	for b.Loop() {
		if err := json.NewEncoder(io.Discard).Encode(Build(agents)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuild2000 scores and encodes the team.json of 2,000 agents
// (every pair scored, the extremes kept).
func BenchmarkBuild2000(b *testing.B) { benchBuild(b, 2000) }

// BenchmarkBuild10000 scores and encodes the team.json of 10,000 agents:
// 50 million pairs.
func BenchmarkBuild10000(b *testing.B) { benchBuild(b, 10000) }

// BenchmarkExplain scores one pair on demand, as `charter team A B` does.
func BenchmarkExplain(b *testing.B) {
	agents := people(2)
	for b.Loop() {
		Explain(agents, "a00000", "a00001")
	}
}
