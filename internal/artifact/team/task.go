package team

import (
	"fmt"
	"slices"

	"github.com/charter-dev/charter/internal/config/model"
)

// UnknownError says that a task names a skill or a tag that no agent has.
type UnknownError struct {
	// Kind is "skill" or "tag".
	Kind, Name string
	// Known are the skills, or tags, the agents have, sorted.
	Known []string
}

func (e *UnknownError) Error() string {
	return fmt.Sprintf("unknown %s %q", e.Kind, e.Name)
}

// Check returns an *UnknownError for the first of the task's skills, then
// of its tags, that none of the agents has: such a task ranks no agent,
// and is most likely a typo.
func (t Task) Check(agents map[string]*model.Agent) error {
	skills, tags := map[string]bool{}, map[string]bool{}
	for _, a := range agents {
		for _, s := range slices.Concat(a.Skills.Primary, a.Skills.Secondary) {
			skills[s.ID] = true
			for _, tag := range s.Tags {
				tags[tag] = true
			}
		}
	}
	for _, s := range t.Skills {
		if !skills[s] {
			return &UnknownError{Kind: "skill", Name: s, Known: model.Sorted(skills)}
		}
	}
	for _, tag := range t.Tags {
		if !tags[tag] {
			return &UnknownError{Kind: "tag", Name: tag, Known: model.Sorted(tags)}
		}
	}
	return nil
}
