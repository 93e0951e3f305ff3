// Package team scores how well two agents work together, as the agent
// identity design specifies, and indexes the team's skills.
//
// The score is a weighted composite clamped to [0, 1]:
//   - 60% Big Five similarity: the mean over openness, conscientiousness,
//     agreeableness and stress_response of 1-|a-b|, and for extraversion a
//     tent function of the difference that peaks at 0.3 (complementary
//     extraverts collaborate better than identical ones):
//     1 - |d-0.3|/0.7.
//   - 20% collaboration alignment on the ordinal independent < pair < team:
//     1.0 the same, 0.5 adjacent, 0.0 opposite.
//   - 20% conflict approach (Thomas-Kilmann): two constructive approaches
//     (collaborate, compromise) 1.0; two destructive ones (compete, avoid)
//     0.2; accommodate with a constructive one or itself 0.6; with a
//     destructive one 0.4; constructive with destructive 0.4.
//
// An unset float counts as 0.5 and an unset enum as a neutral 0.5 score.
package team

import (
	"math"

	"github.com/charter-dev/charter/model"
)

// Weights of the composite score.
const (
	WeightBigFive       = 0.6
	WeightCollaboration = 0.2
	WeightConflict      = 0.2
	// ExtraversionPeak is the difference at which the tent function peaks.
	ExtraversionPeak = 0.3
)

// Score is one pair's compatibility and its parts, rounded to 4 places.
type Score struct {
	Score         float64 `json:"score"`
	BigFive       float64 `json:"big_five"`
	Collaboration float64 `json:"collaboration"`
	Conflict      float64 `json:"conflict"`
}

// Compatibility scores two personalities; either may be nil.
func Compatibility(a, b *model.Personality) Score {
	if a == nil {
		a = &model.Personality{}
	}
	if b == nil {
		b = &model.Personality{}
	}
	sim := func(x, y *float64) float64 { return 1 - math.Abs(val(x)-val(y)) }
	d := math.Abs(val(a.Extraversion) - val(b.Extraversion))
	tent := 1 - math.Abs(d-ExtraversionPeak)/(1-ExtraversionPeak)
	big := (sim(a.Openness, b.Openness) + sim(a.Conscientiousness, b.Conscientiousness) +
		sim(a.Agreeableness, b.Agreeableness) + sim(a.StressResponse, b.StressResponse) + tent) / 5
	col := collaboration(a.Collaboration, b.Collaboration)
	con := conflict(a.ConflictApproach, b.ConflictApproach)
	total := WeightBigFive*big + WeightCollaboration*col + WeightConflict*con
	return Score{Score: round(clamp(total)), BigFive: round(big), Collaboration: round(col), Conflict: round(con)}
}

func val(x *float64) float64 {
	if x == nil {
		return 0.5
	}
	return *x
}

var collabRank = map[string]int{"independent": 0, "pair": 1, "team": 2}

func collaboration(a, b string) float64 {
	ra, oka := collabRank[a]
	rb, okb := collabRank[b]
	if !oka || !okb {
		return 0.5
	}
	switch d := ra - rb; {
	case d == 0:
		return 1
	case d == 1 || d == -1:
		return 0.5
	}
	return 0
}

func conflictClass(s string) string {
	switch s {
	case "collaborate", "compromise":
		return "constructive"
	case "compete", "avoid":
		return "destructive"
	case "accommodate":
		return "mixed"
	}
	return ""
}

func conflict(a, b string) float64 {
	ca, cb := conflictClass(a), conflictClass(b)
	if ca == "" || cb == "" {
		return 0.5
	}
	if ca > cb {
		ca, cb = cb, ca
	}
	switch ca + "/" + cb {
	case "constructive/constructive":
		return 1
	case "destructive/destructive":
		return 0.2
	case "constructive/mixed", "mixed/mixed":
		return 0.6
	}
	return 0.4 // destructive with mixed or constructive
}

func clamp(x float64) float64 { return math.Max(0, math.Min(1, x)) }

func round(x float64) float64 { return math.Round(x*1e4) / 1e4 }
