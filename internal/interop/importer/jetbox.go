package importer

// Jetbox's agent config (001): a list of behaviors with their params. The
// file says nothing else about the agent: its id and name come from the
// file's name.
var jetboxFormat = &Format{
	Name:   "jetbox",
	Title:  "Jetbox behaviors YAML",
	Expect: `a top-level "behaviors:" list of {type, params}`,
	detect: func(root *Node) string {
		// charter's agent.json has a behaviors list too.
		if b := root.Get("behaviors"); b != nil && b.Kind == List && root.Get("content_hash") == nil {
			return `it has a top-level "behaviors:" list`
		}
		return ""
	},
	table:   jetboxTable,
	convert: convertJetbox,
}

var jetboxTable = []mapping{
	{src: "behaviors", to: "agent:behaviors"},
}

func convertJetbox(c *conv, root *Node) {
	a := c.declare("agents", c.stem, "", false)
	a.Why = "from the file's name: the config names no agent"
	t := c.declare("agentTypes", c.stem, "", true)
	name := title(c.stem)
	set(a.Body, "name", str(name))
	set(a.Body, "type", str(t.ID))
	implicitType(c, t, name, a)
	c.w.table = jetboxTable
	c.w.scopes = map[string]*Node{"agent": a.Body}
	c.w.walk(root, nil, nil)
}

// implicitType fills in an agent type for a source that has none: charter
// needs one, and the source's runtime builds the prompt from the behaviors
// and identity alone, so the template is empty and the type carries no
// behavior categories.
func implicitType(c *conv, t *Decl, name string, a *Decl) {
	if t.Exists {
		c.res.Notes = append(c.res.Notes, "agent "+a.ID+" uses the existing agent type "+t.ID)
		return
	}
	set(t.Body, "name", str(name))
	set(t.Body, "description", str("Made by charter import: "+c.name+" has no agent type."))
	set(t.Body, "categories", &Node{Kind: List})
	set(t.Body, "system_prompt", str(""))
	t.Comment = c.name + " has no prompt template: write the agent's instructions in system_prompt."
}
