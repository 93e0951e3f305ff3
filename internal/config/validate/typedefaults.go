package validate

import (
	"slices"

	"github.com/charter-dev/charter/internal/config/model"
)

// applyTypeDefaults merges each agent type's model, tools, skills,
// behaviors and run limits into its agents: the agent's model and run
// limits replace the type's; its
// tools' access_level and allowed replace the type's, and denied adds to
// the type's (an agent cannot lift what its role denies); its own skills
// and behaviors come first, then the type's it does not declare itself
// (by skill id, in either tier, and by behavior type). An agent that
// takes something from its type is replaced by a merged copy: the type's
// values are never shared or changed.
func applyTypeDefaults(cfg *model.Config) {
	for id, a := range cfg.Agents {
		t, ok := cfg.AgentTypes[a.Type]
		if !ok || t.Model == nil && t.Tools == nil && len(t.Skills.Primary)+len(t.Skills.Secondary) == 0 && len(t.Behaviors) == 0 && t.MaxTurns == 0 && t.Timeout == 0 {
			continue
		}
		m := *a
		if m.MaxTurns == 0 {
			m.MaxTurns = t.MaxTurns
		}
		if m.Timeout == 0 {
			m.Timeout = t.Timeout
		}
		if m.Model == nil && t.Model != nil {
			tm := *t.Model
			m.Model = &tm
		}
		if tt := t.Tools; tt != nil {
			if m.Tools.AccessLevel == "" {
				m.Tools.AccessLevel = tt.AccessLevel
			}
			if m.Tools.Allowed == nil {
				m.Tools.Allowed = slices.Clone(tt.Allowed)
			}
			denied := slices.Clone(tt.Denied)
			for _, d := range a.Tools.Denied {
				if !slices.Contains(denied, d) {
					denied = append(denied, d)
				}
			}
			m.Tools.Denied = denied
		}
		has := map[string]bool{}
		for _, s := range slices.Concat(a.Skills.Primary, a.Skills.Secondary) {
			has[s.ID] = true
		}
		m.Skills.Primary = slices.Clone(a.Skills.Primary)
		m.Skills.Secondary = slices.Clone(a.Skills.Secondary)
		for _, s := range t.Skills.Primary {
			if !has[s.ID] {
				m.Skills.Primary = append(m.Skills.Primary, s)
			}
		}
		for _, s := range t.Skills.Secondary {
			if !has[s.ID] {
				m.Skills.Secondary = append(m.Skills.Secondary, s)
			}
		}
		m.Behaviors = slices.Clone(a.Behaviors)
		for _, b := range t.Behaviors {
			if !slices.ContainsFunc(a.Behaviors, func(x model.BehaviorUse) bool { return x.Type == b.Type }) {
				m.Behaviors = append(m.Behaviors, b)
			}
		}
		cfg.Agents[id] = &m
	}
}
