package importer

// charter's own agent.json, as charter build writes it and charter show
// prints it: the declaration with the resolved values over it. Importing
// it into the repository it came from gives back an equal agent.
var charterFormat = &Format{
	Name:   "charter",
	Title:  "charter agent.json",
	Expect: `an agent.json of charter build or charter show (id, type, content_hash)`,
	detect: func(root *Node) string {
		if root.Has("id", "type", "content_hash") {
			return `it has "id", "type" and "content_hash"`
		}
		return ""
	},
	table:   agentJSONTable,
	convert: convertAgentJSON,
}

const recomputed = "charter computes it from the declarations"

// agentJSONTable: keys not listed are the declaration's own, under the
// same name.
var agentJSONTable = []mapping{
	{src: "id", to: used, why: "the agent's id"},
	{src: "profile", to: used, why: "`agents.<id>.profile`: the flattened profile's `name`; the rest is derived (the profile, flattened)"},
	{src: "behaviors.[].kind", to: derived, why: "the behavior type's kind"},
	{src: "behaviors.[].events", to: derived, why: "the events the behavior type handles"},
	{src: "behaviors.[].context", to: derived, why: "the behavior type's context blocks, its parameters filled in"},
	{src: "behavior_schema_version", to: derived, why: "the agent type's schema_version, \"1.0\" when it has none"},
	{src: "onboarding_schema", to: derived, why: "the agent type's onboarding_schema"},
	{src: "default_actions", to: derived, why: "the agent type's default_actions"},
	{src: "version", to: outside, why: "the agent's version number in charter log at the commit built, which the Git history gives, not the declarations"},
	{src: "content_hash", to: derived, why: recomputed},
	{src: "prompt", to: derived, why: recomputed},
	{src: "provided_tools", to: derived, why: "the tools of the agent's behavior types"},
	{src: "variables", to: derived, why: "the agent type's variables"},
	{src: "effective_tools", to: derived, why: "the tools the agent may call: its behaviors' tools narrowed by tools and access_level"},
	{src: "excluded_tools", to: derived, why: "the tools the agent's declarations remove, each with its reason"},
	{src: "tools_restricted", to: derived, why: recomputed},
	{src: "denied_tools", to: derived, why: "the tools tools.denied takes away that no behavior provides, its groups expanded"},
	{src: "tool_constraints", to: derived, why: "the limits the agent's behaviors' parameters put on its tools' calls"},
	{src: "behavior_strictness", to: derived, why: "the order of the options of the agent's settings, from their categories"},
	{src: "runtime_tools", to: derived, why: "the runtimes table's names for the agent's tools"},
	{src: "delegates_to", to: derived, why: "the agents it may start: authority.can_delegate_to, its roles expanded to their members"},
	{src: "tools_declared_at", to: outside, why: "where the agent's tools fields are declared, which the files written decide"},
}

func convertAgentJSON(c *conv, root *Node) {
	a := c.declare("agents", root.Get("id").Str(), "", false)
	c.w.table = agentJSONTable
	c.w.scopes = map[string]*Node{"agent": a.Body}
	c.w.walk(root, nil, a.Body)
	// profile is the flattened profile; the agent names it.
	if f := fieldOf(root, "profile"); f != nil {
		switch p := f.Value; p.Kind {
		case String:
			set(a.Body, "profile", p)
		case Map:
			if name := p.Get("name"); name != nil && name.Kind == String {
				set(a.Body, "profile", name)
			} else {
				c.res.NotCarried = append(c.res.NotCarried, Entry{"profile", f.KeyPos, "a flattened profile without its name"})
			}
			for _, pf := range p.Fields {
				if pf.Key != "name" {
					c.res.Derived = append(c.res.Derived, Entry{"profile." + pf.Key, pf.KeyPos, "the profile " + p.Get("name").Str() + ", flattened"})
				}
			}
		}
	}
	moveFirst(a.Body, "name", "role", "department", "level", "description", "type")
}
