package team

import (
	"cmp"
	"slices"

	"github.com/charter-dev/charter/internal/config/model"
)

// Link is a pair of agents joined by authority, with their score. Fields
// are declared in key order: team.json is written with sorted keys.
type Link struct {
	BigFive       float64 `json:"big_five"`
	Collaboration float64 `json:"collaboration"`
	Conflict      float64 `json:"conflict"`
	From          string  `json:"from"`
	Relation      string  `json:"relation"` // reports_to or can_delegate_to
	Score         float64 `json:"score"`
	To            string  `json:"to"`
}

// Holder is one agent that has a skill.
type Holder struct {
	Agent       string  `json:"agent"`
	Proficiency float64 `json:"proficiency"`
	// Score is the routing score of a task that asks for this skill
	// alone: the tier's weight times the proficiency (see RouteScore).
	Score float64 `json:"score"`
	Tier  string  `json:"tier"`
	// Weight is the tier's weight in the routing score.
	Weight float64 `json:"weight"`
}

// FullMatrixMax is the most agents whose team.json holds every pair's
// score. Above it the matrix (which grows with the square of the agents:
// 350 MB at 10,000) is left out, and Top and Lowest name the extreme
// pairs instead; `charter team A B` scores any pair on demand.
const FullMatrixMax = 500

// Extremes is how many pairs Top and Lowest hold.
const Extremes = 20

// Pair is two agents (A before B) and their score.
type Pair struct {
	A     string  `json:"a"`
	B     string  `json:"b"`
	Score float64 `json:"score"`
}

// Team is what dist/team.json holds. Fields are declared in key order, so
// that plain encoding/json writes sorted keys (the file is large: it is
// written compact, without a pass to sort keys).
type Team struct {
	// Agents lists every agent id in order; Compatibility[i][j] is the
	// score of Agents[i] with Agents[i+1+j] (the upper triangle).
	Agents []string `json:"agents"`
	// Average is the mean score of every pair of agents (nil for fewer
	// than two agents).
	Average *float64 `json:"average"`
	// Compatibility is nil above FullMatrixMax agents.
	Compatibility [][]float64 `json:"compatibility,omitzero"`
	// Departments are the agents of each department with the mean score
	// of their pairs.
	Departments map[string]Department `json:"departments"`
	// Links are the reports_to and can_delegate_to pairs, scored in full.
	Links []Link `json:"links"`
	// Lowest are the Extremes lowest-scoring pairs, lowest first (then by
	// A and B); only above FullMatrixMax agents.
	Lowest []Pair `json:"lowest,omitzero"`
	// Pairs is the number of pairs of agents, above FullMatrixMax
	// agents (where the matrix no longer shows it).
	Pairs int `json:"pairs,omitzero"`
	// Skills maps a skill id to the agents that have it, by routing score
	// (highest first), then tier (primary first), then agent id.
	Skills map[string][]Holder `json:"skills"`
	// Top are the Extremes highest-scoring pairs, highest first (then by
	// A and B); only above FullMatrixMax agents.
	Top     []Pair             `json:"top,omitzero"`
	Weights map[string]float64 `json:"weights"`
}

// Build scores every pair of agents and indexes their skills. Up to
// FullMatrixMax agents it keeps every pair's score; above, the extremes.
func Build(agents map[string]*model.Agent) *Team { return build(agents, FullMatrixMax) }

func build(agents map[string]*model.Agent, matrixMax int) *Team {
	ids := model.Sorted(agents)
	t := &Team{
		Weights: map[string]float64{"big_five": WeightBigFive, "collaboration": WeightCollaboration,
			"conflict": WeightConflict, "extraversion_peak": ExtraversionPeak,
			"route_primary": WeightPrimary, "route_secondary": WeightSecondary, "route_tags": WeightTags},
		Agents: ids,
		Links:  []Link{},
		Skills: map[string][]Holder{},
	}
	tr := make([]traits, len(ids))
	for i, id := range ids {
		tr[i] = traitsOf(agents[id].Personality)
	}
	t.Average, t.Departments = allPairs(t, ids, agents, tr, len(ids) <= matrixMax)
	for _, id := range ids {
		a := agents[id]
		link := func(to, rel string) {
			if b, ok := agents[to]; ok {
				sc := Compatibility(a.Personality, b.Personality)
				t.Links = append(t.Links, Link{From: id, To: to, Relation: rel, Score: sc.Score,
					BigFive: sc.BigFive, Collaboration: sc.Collaboration, Conflict: sc.Conflict})
			}
		}
		if a.Authority.ReportsTo != "" {
			link(a.Authority.ReportsTo, "reports_to")
		}
		for _, to := range a.Authority.CanDelegateTo {
			link(to, "can_delegate_to")
		}
		for _, tier := range []struct {
			name   string
			skills []model.Skill
		}{{"primary", a.Skills.Primary}, {"secondary", a.Skills.Secondary}} {
			for _, s := range tier.skills {
				p := 1.0
				if s.Proficiency != nil {
					p = *s.Proficiency
				}
				w := WeightPrimary
				if tier.name == "secondary" {
					w = WeightSecondary
				}
				t.Skills[s.ID] = append(t.Skills[s.ID], Holder{Agent: id, Proficiency: p, Tier: tier.name, Weight: w, Score: round(w * p)})
			}
		}
	}
	for _, hs := range t.Skills {
		slices.SortFunc(hs, func(x, y Holder) int {
			return cmp.Or(cmp.Compare(y.Score, x.Score), cmp.Compare(x.Tier, y.Tier), cmp.Compare(x.Agent, y.Agent))
		})
	}
	return t
}

// Breakdown is one pair's score with its parts and the relationships
// declared between the two, as `charter team A B` shows it. Fields are
// declared in key order.
type Breakdown struct {
	A             string  `json:"a"`
	B             string  `json:"b"`
	BigFive       float64 `json:"big_five"`
	Collaboration float64 `json:"collaboration"`
	Conflict      float64 `json:"conflict"`
	// Relations are the declared relationships between the two, as
	// "FROM reports_to TO" or "FROM can_delegate_to TO".
	Relations []string `json:"relations"`
	Score     float64  `json:"score"`
}

// Explain scores agents a and b (both must be in agents) with the parts
// of the score and the relationships declared between them.
func Explain(agents map[string]*model.Agent, a, b string) Breakdown {
	x, y := agents[a], agents[b]
	sc := Compatibility(x.Personality, y.Personality)
	out := Breakdown{A: a, B: b, Score: sc.Score, BigFive: sc.BigFive, Collaboration: sc.Collaboration, Conflict: sc.Conflict, Relations: []string{}}
	for _, p := range [][2]string{{a, b}, {b, a}} {
		from, to := agents[p[0]], p[1]
		if from.Authority.ReportsTo == to {
			out.Relations = append(out.Relations, p[0]+" reports_to "+to)
		}
		if slices.Contains(from.Authority.CanDelegateTo, to) {
			out.Relations = append(out.Relations, p[0]+" can_delegate_to "+to)
		}
	}
	return out
}
