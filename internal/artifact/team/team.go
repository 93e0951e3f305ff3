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
func Compatibility(a, b *model.Personality) Score { return TraitsOf(a).compatibility(TraitsOf(b)) }

// Traits is a personality reduced to what the score reads, so that
// scoring all pairs of a large team is arithmetic and table look-ups:
// the floats with unset as 0.5, collaboration's rank and conflict's class
// as table indexes (0 unset). Plain data: an incremental build keeps
// every agent's on disk.
type Traits struct {
	O, C, E, A, S float64
	Col, Con      uint8
}

// TraitsOf reduces a personality, which may be nil, to its traits.
func TraitsOf(p *model.Personality) Traits {
	if p == nil {
		p = &model.Personality{}
	}
	return Traits{O: val(p.Openness), C: val(p.Conscientiousness), E: val(p.Extraversion),
		A: val(p.Agreeableness), S: val(p.StressResponse),
		Col: collabRank[p.Collaboration], Con: conflictClass[p.ConflictApproach]}
}

func (x Traits) compatibility(y Traits) Score {
	big := x.bigFive(y)
	col, con := collabScore[x.Col][y.Col], conflictScore[x.Con][y.Con]
	total := WeightBigFive*big + WeightCollaboration*col + WeightConflict*con
	return Score{Score: round(clamp(total)), BigFive: round(big), Collaboration: round(col), Conflict: round(con)}
}

func (x Traits) bigFive(y Traits) float64 {
	sim := func(p, q float64) float64 { return 1 - math.Abs(p-q) }
	tent := 1 - math.Abs(math.Abs(x.E-y.E)-ExtraversionPeak)/(1-ExtraversionPeak)
	return (sim(x.O, y.O) + sim(x.C, y.C) + sim(x.A, y.A) + sim(x.S, y.S) + tent) / 5
}

// units is Compatibility(...).Score of two agents' traits in
// ten-thousandths (a score is rounded to 4 places): whole numbers, which
// add up exactly in any order, so that an edit of one agent can update a
// sum of millions of pairs.
func (x Traits) units(y Traits) int64 {
	total := WeightBigFive*x.bigFive(y) + WeightCollaboration*collabScore[x.Col][y.Col] + WeightConflict*conflictScore[x.Con][y.Con]
	return int64(math.Round(clamp(total) * 1e4))
}

// score is Compatibility(...).Score of two agents' traits: units / 1e4,
// the very float round gives.
func (x Traits) score(y Traits) float64 { return fromUnits(x.units(y)) }

func fromUnits(u int64) float64 { return float64(u) / 1e4 }

// mean is the mean of pairs scores that add up to sum units, rounded to
// 4 places as every figure of team.json is.
func mean(sum int64, pairs int) float64 {
	return math.Round(float64(sum)/float64(pairs)) / 1e4
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
