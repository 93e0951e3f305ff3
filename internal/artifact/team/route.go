package team

import (
	"cmp"
	"slices"

	"github.com/charter-dev/charter/internal/config/model"
)

// The weights of the routing score (AgentTaskScorer): a matched primary
// skill counts 40%, a secondary one 20%, each scaled by the agent's
// proficiency (1.0 when unset); a matched skill whose tags cover every
// required tag adds 10%.
const (
	WeightPrimary   = 0.4
	WeightSecondary = 0.2
	WeightTags      = 0.1
)

// Task is what a task asks for: skills, and tags the matched skills
// should cover.
type Task struct {
	Skills []string
	Tags   []string
}

// Route is one agent's routing score for a task, with its parts. Fields
// are declared in key order, as team.json is written.
type Route struct {
	Agent string `json:"agent"`
	// Matched are the task's skills the agent has, as tier:id.
	Matched []string `json:"matched"`
	// Primary, Secondary and Tags are the score's three parts.
	Primary   float64 `json:"primary"`
	Score     float64 `json:"score"`
	Secondary float64 `json:"secondary"`
	Tags      float64 `json:"tags"`
}

// RouteScore scores agent a for task: for each of the task's skills the agent
// has, its tier's weight times its proficiency, and the tag bonus when the
// task has tags and that skill's tags cover them all; averaged over the
// task's skills, rounded to four places.
func RouteScore(id string, a *model.Agent, task Task) Route {
	r := Route{Agent: id, Matched: []string{}}
	if len(task.Skills) == 0 {
		return r
	}
	for _, want := range task.Skills {
		for _, tier := range []struct {
			name   string
			weight float64
			skills []model.Skill
			part   *float64
		}{{"primary", WeightPrimary, a.Skills.Primary, &r.Primary}, {"secondary", WeightSecondary, a.Skills.Secondary, &r.Secondary}} {
			i := slices.IndexFunc(tier.skills, func(s model.Skill) bool { return s.ID == want })
			if i < 0 {
				continue
			}
			s := tier.skills[i]
			p := 1.0
			if s.Proficiency != nil {
				p = *s.Proficiency
			}
			*tier.part += tier.weight * p
			if len(task.Tags) > 0 && covers(s.Tags, task.Tags) {
				r.Tags += WeightTags
			}
			r.Matched = append(r.Matched, tier.name+":"+want)
		}
	}
	n := float64(len(task.Skills))
	r.Primary, r.Secondary, r.Tags = round(r.Primary/n), round(r.Secondary/n), round(r.Tags/n)
	r.Score = round(r.Primary + r.Secondary + r.Tags)
	return r
}

func covers(have, want []string) bool {
	for _, t := range want {
		if !slices.Contains(have, t) {
			return false
		}
	}
	return true
}

// Rank scores every agent for task and returns those that match at least
// one skill, best first (then by agent id).
func Rank(agents map[string]*model.Agent, task Task) []Route {
	var out []Route
	for _, id := range model.Sorted(agents) {
		if r := RouteScore(id, agents[id], task); len(r.Matched) > 0 {
			out = append(out, r)
		}
	}
	slices.SortStableFunc(out, func(x, y Route) int {
		return cmp.Or(cmp.Compare(y.Score, x.Score), cmp.Compare(x.Agent, y.Agent))
	})
	return out
}
