package team

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/config/model"
)

func f(x float64) *float64 { return &x }

func TestCompatibility(t *testing.T) {
	same := &model.Personality{Openness: f(0.5), Conscientiousness: f(0.5), Extraversion: f(0.5), Agreeableness: f(0.5), StressResponse: f(0.5),
		Collaboration: "team", ConflictApproach: "collaborate"}
	for _, tc := range []struct {
		name string
		a, b *model.Personality
		want Score
	}{
		{
			// Identical extraversion scores the tent at d=0: 1-0.3/0.7.
			name: "identical", a: same, b: same,
			want: Score{Score: 0.6*((4+(1-0.3/0.7))/5) + 0.2 + 0.2, BigFive: 0.9143, Collaboration: 1, Conflict: 1},
		},
		{
			name: "extraversion apart by the peak",
			a:    &model.Personality{Extraversion: f(0.2), Collaboration: "independent", ConflictApproach: "compete"},
			b:    &model.Personality{Extraversion: f(0.5), Collaboration: "team", ConflictApproach: "avoid"},
			want: Score{Score: 0.6 + 0 + 0.2*0.2, BigFive: 1, Collaboration: 0, Conflict: 0.2},
		},
		{
			name: "adjacent and mixed",
			a:    &model.Personality{Openness: f(0), Extraversion: f(0.3), Collaboration: "pair", ConflictApproach: "accommodate"},
			b:    &model.Personality{Openness: f(1), Extraversion: f(0.6), Collaboration: "team", ConflictApproach: "compete"},
			want: Score{Score: 0.6*0.8 + 0.2*0.5 + 0.2*0.4, BigFive: 0.8, Collaboration: 0.5, Conflict: 0.4},
		},
		{
			name: "unset is neutral", a: nil, b: nil,
			want: Score{Score: 0.6*((4+(1-0.3/0.7))/5) + 0.1 + 0.1, BigFive: 0.9143, Collaboration: 0.5, Conflict: 0.5},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.want.Score = round(tc.want.Score)
			got := Compatibility(tc.a, tc.b)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if rev := Compatibility(tc.b, tc.a); rev != got {
				t.Errorf("not symmetric: %+v vs %+v", got, rev)
			}
		})
	}
}
