package team

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/config/model"
)

func skill(id string, p float64, tags ...string) model.Skill {
	return model.Skill{ID: id, Name: id, Proficiency: f(p), Tags: tags}
}

var routed = map[string]*model.Agent{
	"ann": {Department: "eng", Skills: model.SkillSet{Primary: []model.Skill{skill("python", 0.9, "backend")}}},
	"bob": {Department: "eng", Skills: model.SkillSet{Secondary: []model.Skill{skill("python", 1.0, "backend", "api")}}},
	"cy":  {Department: "ops", Skills: model.SkillSet{Primary: []model.Skill{{ID: "python", Name: "Python"}, skill("sql", 0.5)}}},
	"dee": {Skills: model.SkillSet{Primary: []model.Skill{skill("go", 1)}}},
}

// TestRank: the seed's AgentTaskScorer: 40% primary and 20% secondary,
// each times proficiency (1.0 unset), +10% when a matched skill's tags
// cover the task's, averaged over the task's skills.
func TestRank(t *testing.T) {
	for _, tc := range []struct {
		name string
		task Task
		want []Route
	}{
		{"a primary skill at 0.9 outranks a secondary at 1.0", Task{Skills: []string{"python"}}, []Route{
			{Agent: "cy", Matched: []string{"primary:python"}, Primary: 0.4, Score: 0.4},
			{Agent: "ann", Matched: []string{"primary:python"}, Primary: 0.36, Score: 0.36},
			{Agent: "bob", Matched: []string{"secondary:python"}, Secondary: 0.2, Score: 0.2},
		}},
		{"tags", Task{Skills: []string{"python"}, Tags: []string{"backend", "api"}}, []Route{
			{Agent: "cy", Matched: []string{"primary:python"}, Primary: 0.4, Score: 0.4},
			{Agent: "ann", Matched: []string{"primary:python"}, Primary: 0.36, Score: 0.36},
			{Agent: "bob", Matched: []string{"secondary:python"}, Secondary: 0.2, Tags: 0.1, Score: 0.3},
		}},
		{"two skills", Task{Skills: []string{"python", "sql"}}, []Route{
			{Agent: "cy", Matched: []string{"primary:python", "primary:sql"}, Primary: 0.3, Score: 0.3},
			{Agent: "ann", Matched: []string{"primary:python"}, Primary: 0.18, Score: 0.18},
			{Agent: "bob", Matched: []string{"secondary:python"}, Secondary: 0.1, Score: 0.1},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Rank(routed, tc.task)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestSkillIndexOrder: team.json's index ranks by the routing score, so
// primary skills come before secondary ones of higher proficiency.
func TestSkillIndexOrder(t *testing.T) {
	var got []string
	for _, h := range Build(routed).Skills["python"] {
		got = append(got, h.Agent)
	}
	if diff := cmp.Diff([]string{"cy", "ann", "bob"}, got); diff != "" {
		t.Errorf("python holders (-want +got):\n%s", diff)
	}
}

// TestDepartments: the team average and each department's, over all
// pairs (the seed's itertools.combinations).
func TestDepartments(t *testing.T) {
	tm := Build(routed)
	ab := Compatibility(nil, nil).Score
	if tm.Average == nil || *tm.Average != ab {
		t.Errorf("team average %v, want %v (every pair of unset personalities)", tm.Average, ab)
	}
	eng := tm.Departments["eng"]
	if eng.Pairs != 1 || eng.Average == nil || *eng.Average != ab || !cmp.Equal(eng.Agents, []string{"ann", "bob"}) {
		t.Errorf("eng = %+v", eng)
	}
	if ops := tm.Departments["ops"]; ops.Pairs != 0 || ops.Average != nil {
		t.Errorf("a department of one has no pairs and no average: %+v", ops)
	}
}
