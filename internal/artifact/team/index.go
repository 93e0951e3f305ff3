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
func Build(agents map[string]*model.Agent) *Team {
	t, _ := build(Members(agents), FullMatrixMax)
	return t
}

// Member is what team.json reads of one agent: its traits, department,
// authority and skills. Plain data: an incremental build keeps every
// agent's on disk, and builds team.json from them (BuildMembers,
// Pairing.Update) as Build does from the agents.
type Member struct {
	Traits        Traits
	Department    string
	ReportsTo     string
	CanDelegateTo []string
	// Skills are the agent's skills as the skill index lists them.
	Skills []Skill
}

// Skill is one entry of a member's skills: the skill and how the index
// lists the agent under it.
type Skill struct {
	ID     string
	Holder Holder
}

// MemberOf is what team.json reads of agent id, declared as a.
func MemberOf(id string, a *model.Agent) Member {
	m := Member{Traits: TraitsOf(a.Personality), Department: a.Department, ReportsTo: a.Authority.ReportsTo, CanDelegateTo: a.Authority.CanDelegateTo}
	for _, tier := range []struct {
		name   string
		weight float64
		skills []model.Skill
	}{{"primary", WeightPrimary, a.Skills.Primary}, {"secondary", WeightSecondary, a.Skills.Secondary}} {
		for _, s := range tier.skills {
			p := 1.0
			if s.Proficiency != nil {
				p = *s.Proficiency
			}
			m.Skills = append(m.Skills, Skill{ID: s.ID, Holder: Holder{Agent: id, Proficiency: p, Tier: tier.name, Weight: tier.weight, Score: round(tier.weight * p)}})
		}
	}
	return m
}

// Members is MemberOf every agent.
func Members(agents map[string]*model.Agent) map[string]Member {
	out := make(map[string]Member, len(agents))
	for id, a := range agents {
		out[id] = MemberOf(id, a)
	}
	return out
}

// BuildMembers is Build from the agents' members, with the Pairing that
// an update of some of them starts from.
func BuildMembers(members map[string]Member) (*Team, *Pairing) {
	return build(members, FullMatrixMax)
}

func build(members map[string]Member, matrixMax int) (*Team, *Pairing) {
	ids := model.Sorted(members)
	t := newTeam(ids)
	tr := make([]Traits, len(ids))
	for i, id := range ids {
		tr[i] = members[id].Traits
	}
	p := allPairs(t, ids, members, tr, len(ids) <= matrixMax)
	p.finish(t, ids, members)
	return t, p
}

// newTeam is the team of agents ids before any score.
func newTeam(ids []string) *Team {
	return &Team{
		Weights: map[string]float64{"big_five": WeightBigFive, "collaboration": WeightCollaboration,
			"conflict": WeightConflict, "extraversion_peak": ExtraversionPeak,
			"route_primary": WeightPrimary, "route_secondary": WeightSecondary, "route_tags": WeightTags},
		Agents: ids,
		Links:  []Link{},
		Skills: map[string][]Holder{},
	}
}

// index fills in what reads each agent alone: the authority links and
// the skill index.
func index(t *Team, ids []string, members map[string]Member) {
	for _, id := range ids {
		m := members[id]
		link := func(to, rel string) {
			if b, ok := members[to]; ok {
				sc := m.Traits.compatibility(b.Traits)
				t.Links = append(t.Links, Link{From: id, To: to, Relation: rel, Score: sc.Score,
					BigFive: sc.BigFive, Collaboration: sc.Collaboration, Conflict: sc.Conflict})
			}
		}
		if m.ReportsTo != "" {
			link(m.ReportsTo, "reports_to")
		}
		for _, to := range m.CanDelegateTo {
			link(to, "can_delegate_to")
		}
		for _, s := range m.Skills {
			t.Skills[s.ID] = append(t.Skills[s.ID], s.Holder)
		}
	}
	for _, hs := range t.Skills {
		slices.SortFunc(hs, func(x, y Holder) int {
			return cmp.Or(cmp.Compare(y.Score, x.Score), cmp.Compare(x.Tier, y.Tier), cmp.Compare(x.Agent, y.Agent))
		})
	}
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
