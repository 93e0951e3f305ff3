package model

import (
	"slices"
	"strings"
)

// Person is someone who may own declarations and approve changes.
type Person struct {
	Name string `json:"name,omitempty"`
	// GitHub is the person's handle, @alice; Email the address their
	// commits and Approved-by: trailers carry.
	GitHub string `json:"github,omitempty"`
	Email  string `json:"email,omitempty"`
	// Teams are the GitHub teams (@org/team) the person is in.
	Teams []string `json:"teams,omitempty"`
}

// RepositorySettings hold what applies to the whole repository.
type RepositorySettings struct {
	// Owners own every declaration that names none of its own.
	Owners []string `json:"owners,omitempty"`
}

// AgentOwners returns who owns agent id: its own owners, else its type's,
// else the repository's.
func (c *Config) AgentOwners(id string) []string {
	a, ok := c.Agents[id]
	if !ok {
		return nil
	}
	if len(a.Owners) > 0 {
		return a.Owners
	}
	if t, ok := c.AgentTypes[a.Type]; ok && len(t.Owners) > 0 {
		return t.Owners
	}
	return c.Repository.Owners
}

// TypeOwners returns who owns agent type slug: its own owners, else the
// repository's.
func (c *Config) TypeOwners(slug string) []string {
	if t, ok := c.AgentTypes[slug]; ok && len(t.Owners) > 0 {
		return t.Owners
	}
	return c.Repository.Owners
}

// ProfileOwners returns who owns profile name: its own owners, else those
// of the profile it extends (and so on up), else the repository's.
func (c *Config) ProfileOwners(name string) []string {
	seen := map[string]bool{}
	for p, ok := c.Profiles[name]; ok && !seen[name]; p, ok = c.Profiles[name] {
		seen[name] = true
		if len(p.Owners) > 0 {
			return p.Owners
		}
		name = p.Extends
	}
	return c.Repository.Owners
}

// RoleOwners returns who owns role name: its own owners, else the
// repository's.
func (c *Config) RoleOwners(name string) []string {
	if r, ok := c.Roles[name]; ok && len(r.Owners) > 0 {
		return r.Owners
	}
	return c.Repository.Owners
}

// Approvers returns who may approve a change that widens agent id: its
// owners and the owners of the agent or role it reports to (seed 004's
// authority), each once, in order.
func (c *Config) Approvers(id string) []string {
	out := slices.Clone(c.AgentOwners(id))
	if a, ok := c.Agents[id]; ok && a.Authority.ReportsTo != "" && a.Authority.ReportsTo != id {
		to := a.Authority.ReportsTo
		if _, ok := c.Agents[to]; ok {
			out = append(out, c.AgentOwners(to)...)
		} else if _, ok := c.Roles[to]; ok {
			out = append(out, c.RoleOwners(to)...)
		}
	}
	seen := map[string]bool{}
	return slices.DeleteFunc(out, func(o string) bool {
		k := strings.ToLower(o)
		dup := seen[k]
		seen[k] = true
		return dup
	})
}

// OwnerKind says what an owner names.
type OwnerKind int

// Kinds of owner.
const (
	OwnerUnknown OwnerKind = iota
	OwnerUser              // @alice
	OwnerTeam              // @org/team
	OwnerEmail             // ada@example.com
	OwnerPerson            // a name under people
)

// KindOf says what owner names: a GitHub user or team, an e-mail address,
// a declared person, or (OwnerUnknown) nothing the config declares.
func (c *Config) KindOf(owner string) OwnerKind {
	switch {
	case strings.HasPrefix(owner, "@") && strings.Contains(owner, "/"):
		return OwnerTeam
	case strings.HasPrefix(owner, "@"):
		return OwnerUser
	case strings.Contains(owner, "@"):
		return OwnerEmail
	}
	if _, ok := c.People[owner]; ok {
		return OwnerPerson
	}
	return OwnerUnknown
}
