package importer

import (
	"strings"

	"github.com/charter-dev/charter/render/template"
)

// EchoForge's AgentType row (the Agent Behavior Framework, 000: the model
// of 2.1, the defaults of 7.1, the template of 7.2) or its behavior_config
// alone.
var echoforgeFormat = &Format{
	Name:   "echoforge",
	Title:  "EchoForge behavior_config JSON",
	Expect: `an AgentType with "behavior_config" (and slug, name, system_prompt_template), or a bare behavior_config object of categories (scheduling, approval, communication, proactivity)`,
	detect: func(root *Node) string {
		if root.Kind != Map {
			return ""
		}
		if root.Get("behavior_config") != nil {
			return `it has "behavior_config"`
		}
		for _, f := range root.Fields {
			if f.Value.Kind != Map {
				return ""
			}
		}
		for _, f := range root.Fields {
			switch f.Key {
			case "scheduling", "approval", "communication", "proactivity":
				return `a behavior_config: it has the category "` + f.Key + `"`
			}
		}
		return ""
	},
	table:   echoforgeTable,
	convert: convertEchoForge,
}

// echoforgeTable maps an AgentType row to an agent type.
var echoforgeTable = []mapping{
	{src: "slug", to: used, why: "the agent type's id (the name's slug, or the file's, when there is none)"},
	{src: "id", why: "EchoForge's database key; the agent type's id is its slug"},
	{src: "name", to: "type:name"},
	{src: "description", to: "type:description"},
	{src: "behavior_config", to: "type:behavior"},
	{src: "system_prompt_template", to: "type:system_prompt"},
	{src: "behavior_schema_version", to: "type:schema_version"},
	{src: "onboarding_schema", to: "type:onboarding_schema"},
	{src: "default_actions", to: "type:default_actions"},
	{src: "created_at", why: "database bookkeeping: Git records when a declaration changes"},
	{src: "updated_at", why: "database bookkeeping: Git records when a declaration changes"},
}

func convertEchoForge(c *conv, root *Node) {
	if root.Get("behavior_config") == nil {
		// A behavior_config alone is a named partial behavior: a preset.
		d := c.declare("presets", c.stem, "", false)
		d.Comment = "The behavior_config of " + c.name + "."
		c.w.table = nil
		c.w.walk(root, nil, child(d.Body, "behavior"))
		return
	}
	from := root.Get("slug").Str()
	if from == "" {
		from = root.Get("name").Str()
	}
	if from == "" {
		from = c.stem
	}
	d := c.declare("agentTypes", from, "", false)
	c.w.table = echoforgeTable
	c.w.scopes = map[string]*Node{"type": d.Body}
	c.w.walk(root, nil, nil)
	declareVariables(d.Body)
}

// declareVariables declares the runtime placeholders of an agent type's
// template as required variables: the source's runtime fills them, and
// charter checks every placeholder is declared.
func declareVariables(body *Node) {
	var prompt *Node
	for _, f := range body.Fields {
		if f.Key == "system_prompt" {
			prompt = f.Value
		}
	}
	if prompt == nil || prompt.Kind != String {
		return
	}
	tmpl, err := template.Parse(prompt.Text)
	if err != nil {
		return // validation reports it, at its line
	}
	var vars *Node
	seen := map[string]bool{}
	for _, p := range tmpl.Placeholders() {
		if strings.Contains(p.Name, ".") || seen[p.Name] {
			continue
		}
		seen[p.Name] = true
		if vars == nil {
			vars = child(body, "variables")
		}
		v := child(vars, p.Name)
		set(v, "required", &Node{Kind: Bool, Text: "true"})
	}
}
