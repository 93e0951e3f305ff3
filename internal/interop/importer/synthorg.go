package importer

import (
	"regexp"
	"slices"
	"sync"
)

// SynthOrg's agent identity (004, "Full agent identity YAML"): charter's
// agent declaration was made from it, so most keys keep their names.
var synthorgFormat = &Format{
	Name:   "synthorg",
	Title:  "SynthOrg agent identity YAML",
	Expect: `a top-level "agent:" map (name, role, personality, skills, model and the rest of an identity)`,
	detect: func(root *Node) string {
		if a := root.Get("agent"); a != nil && a.Kind == Map {
			return `it has a top-level "agent:" map`
		}
		return ""
	},
	table:   synthorgTable,
	convert: convertSynthOrg,
}

// synthorgTable: keys not listed keep their name under the agent (agent.x
// -> agents.<id>.x), and charter's validation judges them there.
var synthorgTable = []mapping{
	{src: "agent", to: "agent:"},
	{src: "agent.id", to: used, why: "a comment above the agent: SynthOrg's id is a registry UUID, charter's is the slug of the name"},
}

func convertSynthOrg(c *conv, root *Node) {
	agent := root.Get("agent")
	name := agent.Get("name").Str()
	if name == "" {
		name = c.stem
	}
	a := c.declare("agents", name, "", false)
	if id := agent.Get("id").Str(); id != "" {
		// SynthOrg's id is the registry's UUID; charter's is a slug,
		// made from the name. The UUID is kept beside the declaration.
		a.Comment = "SynthOrg id: " + id
		a.Why = "SynthOrg's id " + quote(id) + " is a registry id; charter's is made from the name"
	}
	tmpl := agent.Get("role").Str()
	if tmpl == "" {
		tmpl = name
	}
	t := c.declare("agentTypes", tmpl, "", true)
	set(a.Body, "type", str(t.ID))
	implicitType(c, t, tmpl, a)
	c.w.table = synthorgTable
	c.w.scopes = map[string]*Node{"agent": a.Body}
	// The agent's keys go into the agent, in the source's order; type
	// was written first and stays where the identity puts it in charter.
	c.w.walk(root, nil, nil)
	moveFirst(a.Body, "name", "role", "department", "level", "type")
	declareRoles(c, agent.Get("authority"), a.ID)
}

// declareRoles declares, as roles, the names the identity's authority
// fields use that the config root knows as nothing else: SynthOrg's
// reports_to and can_delegate_to name roles and groups (engineering_lead,
// junior_developers), its can_approve kinds of work (code_reviews). The
// identity is written as it is, and validates.
func declareRoles(c *conv, auth *Node, self string) {
	if auth == nil || auth.Kind != Map || c.authorityName == nil {
		return
	}
	var names []string
	if s := auth.Get("reports_to").Str(); s != "" {
		names = append(names, s)
	}
	for _, key := range []string{"can_delegate_to", "can_approve"} {
		if l := auth.Get(key); l != nil && l.Kind == List {
			for _, it := range l.Items {
				if s := it.Str(); s != "" {
					names = append(names, s)
				}
			}
		}
	}
	for _, n := range names {
		if n == self || c.authorityName(n) || !roleName().MatchString(n) || slices.ContainsFunc(c.res.Decls, func(d *Decl) bool { return d.Kind == "roles" && d.ID == n }) {
			continue
		}
		c.res.Decls = append(c.res.Decls, &Decl{Kind: "roles", From: n, ID: n, Body: &Node{Kind: Map}, Implicit: true,
			Why: "the identity's authority names it, and the config root knows no agent or role of that name"})
	}
}

// roleName is a name a role is declared under as it is.
var roleName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`) })

// moveFirst puts the named fields of a map first, in that order.
func moveFirst(n *Node, keys ...string) {
	var first, rest []*Field
	for _, k := range keys {
		for _, f := range n.Fields {
			if f.Key == k {
				first = append(first, f)
			}
		}
	}
	for _, f := range n.Fields {
		keep := true
		for _, k := range keys {
			if f.Key == k {
				keep = false
			}
		}
		if keep {
			rest = append(rest, f)
		}
	}
	n.Fields = append(first, rest...)
}
