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

	"github.com/charter-dev/charter/internal/config/model"
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
	x, y := traitsOf(a), traitsOf(b)
	big := x.bigFive(y)
	col, con := collabScore[x.col][y.col], conflictScore[x.con][y.con]
	total := WeightBigFive*big + WeightCollaboration*col + WeightConflict*con
	return Score{Score: round(clamp(total)), BigFive: round(big), Collaboration: round(col), Conflict: round(con)}
}

// traits is a personality reduced to what the score reads, so that
// scoring all pairs of a large team is arithmetic and table look-ups:
// the floats with unset as 0.5, collaboration's rank and conflict's class
// as table indexes (0 unset).
type traits struct {
	o, c, e, a, s float64
	col, con      uint8
}

func traitsOf(p *model.Personality) traits {
	if p == nil {
		p = &model.Personality{}
	}
	return traits{o: val(p.Openness), c: val(p.Conscientiousness), e: val(p.Extraversion),
		a: val(p.Agreeableness), s: val(p.StressResponse),
		col: collabRank[p.Collaboration], con: conflictClass[p.ConflictApproach]}
}

func (x traits) bigFive(y traits) float64 {
	sim := func(p, q float64) float64 { return 1 - math.Abs(p-q) }
	tent := 1 - math.Abs(math.Abs(x.e-y.e)-ExtraversionPeak)/(1-ExtraversionPeak)
	return (sim(x.o, y.o) + sim(x.c, y.c) + sim(x.a, y.a) + sim(x.s, y.s) + tent) / 5
}

// score is Compatibility(...).Score of two agents' traits.
func (x traits) score(y traits) float64 {
	total := WeightBigFive*x.bigFive(y) + WeightCollaboration*collabScore[x.col][y.col] + WeightConflict*conflictScore[x.con][y.con]
	return round(clamp(total))
}

func val(x *float64) float64 {
	if x == nil {
		return 0.5
	}
	return *x
}

// collabRank is the ordinal independent < pair < team, from 1 (0 is
// unset or unknown).
var collabRank = map[string]uint8{"independent": 1, "pair": 2, "team": 3}

// collabScore: the same rank 1.0, adjacent 0.5, opposite 0.0; unset 0.5.
var collabScore = [4][4]float64{
	{0.5, 0.5, 0.5, 0.5},
	{0.5, 1, 0.5, 0},
	{0.5, 0.5, 1, 0.5},
	{0.5, 0, 0.5, 1},
}

// conflictClass: 1 constructive, 2 mixed, 3 destructive (0 unset).
var conflictClass = map[string]uint8{"collaborate": 1, "compromise": 1, "accommodate": 2, "compete": 3, "avoid": 3}

// conflictScore: two constructive 1.0, two destructive 0.2, mixed with
// constructive or mixed 0.6, destructive with anything else 0.4; unset 0.5.
var conflictScore = [4][4]float64{
	{0.5, 0.5, 0.5, 0.5},
	{0.5, 1, 0.6, 0.4},
	{0.5, 0.6, 0.6, 0.4},
	{0.5, 0.4, 0.4, 0.2},
}

// clamp is math.Max(0, math.Min(1, x)) for the x a score can be (never
// NaN or a signed zero), in plain comparisons: it runs once a pair.
func clamp(x float64) float64 {
	if x < 0 {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}

func round(x float64) float64 { return math.Round(x*1e4) / 1e4 }
