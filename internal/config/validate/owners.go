package validate

import (
	"fmt"
	"strings"

	"github.com/charter-dev/charter/internal/config/model"
)

// owners checks that every owner names someone: a GitHub user or team, an
// e-mail address, or a person declared under people. A bare name that is
// no person would be an owner nobody can ever match, so a change it owns
// could never be approved, or (worse) a typo would go unseen.
func (v *validator) owners() {
	c := v.res.Config
	check := func(p Path, list []string) {
		seen := map[string]bool{}
		for i, o := range list {
			key := strings.ToLower(o)
			if seen[key] {
				v.report("reference", p.Child(Index(i)), "owner %q is listed twice", o)
				continue
			}
			seen[key] = true
			if c.KindOf(o) != model.OwnerUnknown {
				continue
			}
			people := names(c.People)
			hint := didYouMean(o, people, "people")
			if _, close := closest(o, people); !close {
				hint = fmt.Sprintf("; an owner is @user, @org/team, an e-mail address, or a person declared under people: people: %s: {github: \"@...\", email: \"...\"}", quoteLabel(o))
			}
			v.reportName("reference", p.Child(Index(i)), false, o, people, "owner %q names no person%s", o, hint)
		}
	}
	check(Path{"repository", "owners"}, c.Repository.Owners)
	for _, id := range names(c.Agents) {
		check(Path{"agents", id, "owners"}, c.Agents[id].Owners)
	}
	for _, slug := range names(c.AgentTypes) {
		check(Path{"agentTypes", slug, "owners"}, c.AgentTypes[slug].Owners)
	}
	for _, name := range names(c.Profiles) {
		check(Path{"profiles", name, "owners"}, c.Profiles[name].Owners)
	}
	for _, name := range names(c.Roles) {
		check(Path{"roles", name, "owners"}, c.Roles[name].Owners)
	}
	// Two people with one handle or address: an approval would count for
	// whichever came first.
	handles, emails := map[string]string{}, map[string]string{}
	for _, name := range names(c.People) {
		p := c.People[name]
		if p.GitHub == "" && p.Email == "" {
			v.report("schema", Path{"people", name}, "person %s has neither github nor email, so no approval can be theirs: give one", name)
		}
		for _, f := range []struct {
			field, val string
			seen       map[string]string
		}{{"github", p.GitHub, handles}, {"email", p.Email, emails}} {
			if f.val == "" {
				continue
			}
			k := strings.ToLower(f.val)
			if other, dup := f.seen[k]; dup {
				v.report("reference", Path{"people", name, f.field}, "%s %s is also person %s's: one person per %s", f.field, f.val, other, f.field)
				continue
			}
			f.seen[k] = name
		}
	}
}
