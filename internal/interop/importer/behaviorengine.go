package importer

// The behavior engine's app YAML (002): an app with its agents (brain,
// system prompt) and security.behavior: a profile, toggles of its rules and
// custom rules.
var behaviorEngineFormat = &Format{
	Name:   "behavior-engine",
	Title:  "behavior engine app YAML",
	Expect: `an app with "security: behavior:" (profile, rules, custom), or "app:" with "agents:" (brain, system_prompt)`,
	detect: func(root *Node) string {
		if b := root.Get("security").Get("behavior"); b != nil && b.Kind == Map {
			return `it has "security: behavior:"`
		}
		if root.Get("app") != nil && root.Get("agents") != nil && root.Get("agents").Kind == List {
			return `it has "app:" and an "agents:" list`
		}
		return ""
	},
	table:   behaviorEngineTable,
	convert: convertBehaviorEngine,
}

const (
	credentials = "credentials stay in the runtime's secret store; charter never holds them"
	endpoint    = "the runtime's API client; charter names a provider and a model only"
)

var behaviorEngineTable = []mapping{
	{src: "app", to: descend},
	{src: "app.app_id", to: used, why: "the id of the agent (when the app has one), its type and its profile"},
	{src: "app.name", to: used, why: "the agent's and its type's `name` (when the app has one agent)"},
	{src: "app.version", why: "charter versions an agent by its Git history (charter log)"},
	{src: "runtime", to: descend},
	{src: "runtime.max_turns", to: used, why: "every agent type's `max_turns`: the run limit its agents take"},
	{src: "runtime.timeout", to: used, why: "every agent type's `timeout` (seconds)"},
	{src: "runtime.mode", why: "how that runtime runs a conversation; charter declares the agent, not the runtime"},
	{src: "runtime.workdir_mode", why: "where that runtime runs the agent; charter declares the agent, not the runtime"},
	{src: "agents", to: used, why: "one agent and one agent type each"},
	{src: "agents.[].id", to: used, why: "with several agents, their ids are `<app_id>-<id>`, their names made from it"},
	{src: "agents.[].role", to: "agent:role"},
	{src: "agents.[].brain", to: "agent:model"},
	{src: "agents.[].brain.model", to: ".model_id"},
	{src: "agents.[].brain.backend", why: endpoint},
	{src: "agents.[].brain.credential", why: credentials},
	{src: "agents.[].brain.config", to: "."},
	{src: "agents.[].brain.config.api_key", why: credentials},
	{src: "agents.[].brain.config.base_url", why: endpoint},
	{src: "agents.[].system_prompt", to: "type:system_prompt"},
	{src: "tools", to: descend},
	{src: "tools.modules", why: "that runtime's tool modules; in charter, tools come from behavior types (behaviors:)"},
	{src: "tools.capabilities", why: "that runtime's capability gate; charter's is an agent's tools.allowed and tools.denied"},
	{src: "security", to: descend},
	{src: "security.behavior", to: used, why: "a profile of the app's own when it has rules, custom, a classifier or classify_turns; else the agent's `profile` names the profile"},
	{src: "security.behavior.profile", to: used, why: "`profiles.<id>.extends`, or the agent's `profile`"},
	{src: "security.behavior.rules", to: "profile:rules", conv: toggles},
	{src: "security.behavior.custom", to: used, why: "`profiles.<id>.rules.<rule id>`, each rule's keys under the same names"},
	{src: "security.behavior.custom.[].id", to: used, why: "the rule's id"},
	{src: "security.behavior.classify_turns", to: "profile:classify_turns"},
	{src: "security.behavior.classifier", to: "profile:classifier"},
	{src: "security.behavior.classifier.brain", to: "."},
	{src: "security.behavior.classifier.brain.provider", why: "a classifier names its model only"},
	{src: "security.behavior.classifier.brain.backend", why: endpoint},
	{src: "security.behavior.classifier.brain.credential", why: credentials},
	{src: "security.behavior.classifier.brain.config", why: endpoint},
}

// toggles turns `rule: false` into `rule: enabled: false`.
func toggles(n *Node) *Node {
	if n.Kind != Map {
		return n
	}
	out := &Node{Kind: Map, Pos: n.Pos}
	for _, f := range n.Fields {
		v := f.Value
		if v.Kind == Bool {
			v = &Node{Kind: Map, Pos: v.Pos, Fields: []*Field{{Key: "enabled", KeyPos: f.KeyPos, Value: v}}}
		}
		out.Fields = append(out.Fields, &Field{Key: f.Key, KeyPos: f.KeyPos, Value: v})
	}
	return out
}

func fieldOf(n *Node, key string) *Field {
	if n == nil || n.Kind != Map {
		return nil
	}
	for _, f := range n.Fields {
		if f.Key == key {
			return f
		}
	}
	return nil
}

func convertBehaviorEngine(c *conv, root *Node) {
	w := c.w
	w.table = behaviorEngineTable
	w.scopes = map[string]*Node{}
	w.walk(root, nil, nil)

	app := root.Get("app")
	appID := app.Get("app_id").Str()
	if appID == "" {
		appID = app.Get("name").Str()
	}
	if appID == "" {
		appID = c.stem
	}
	appName := app.Get("name").Str()
	if appName == "" {
		appName = title(appID)
	}

	// The profile: the one named, or one of the app's own when it toggles
	// rules, adds rules, has a classifier or switches one on or off (the
	// profile it extends may have one).
	sbPath := Path{"security", "behavior"}
	sb := root.Get("security").Get("behavior")
	profile := sb.Get("profile").Str()
	if sb != nil && sb.Kind == Map && (sb.Get("rules") != nil || sb.Get("custom") != nil || sb.Get("classifier") != nil || sb.Get("classify_turns") != nil) {
		p := c.declare("profiles", appID, "", false)
		if profile != "" {
			set(p.Body, "extends", str(profile))
		}
		w.scopes["profile"] = p.Body
		w.walk(sb, sbPath, nil)
		if custom := fieldOf(sb, "custom"); custom != nil {
			customRules(c, custom, sbPath.key("custom"), child(p.Body, "rules"))
		}
		profile = p.ID
	} else if sb != nil && sb.Kind == Map {
		w.walk(sb, sbPath, nil)
	}
	agents := root.Get("agents")
	if agents == nil || agents.Kind != List {
		return
	}
	for i, item := range agents.Items {
		path := Path{"agents"}.index(i)
		if item.Kind != Map {
			c.res.NotCarried = append(c.res.NotCarried, Entry{path.String(), item.Pos, "an agent is a map, found a " + item.Kind.String()})
			continue
		}
		from := item.Get("id").Str()
		want, name := appID, appName
		if len(agents.Items) > 1 || from == "" {
			if from == "" {
				from = "agent" + path[1]
			}
			want, name = appID+"-"+from, title(from)
		}
		a := c.declare("agents", from, want, false)
		if want == appID {
			a.Why = "the app's id: the app has one agent"
		}
		t := c.declare("agentTypes", from, want, false)
		if want == appID {
			t.Why = a.Why
		}
		set(a.Body, "name", str(name))
		set(t.Body, "name", str(name))
		// The engine's prompts have no behavior categories.
		set(t.Body, "categories", &Node{Kind: List})
		w.scopes["agent"], w.scopes["type"] = a.Body, t.Body
		w.walk(item, path, nil)
		if item.Get("system_prompt") == nil {
			set(t.Body, "system_prompt", str(""))
			t.Comment = "The agent has no system_prompt: write its instructions here."
		}
		declareVariables(t.Body)
		// The run limits are the app's: every agent's type takes them.
		for _, limit := range []string{"max_turns", "timeout"} {
			if v := root.Get("runtime").Get(limit); v != nil && v.Kind != Null {
				set(t.Body, limit, v)
			}
		}
		set(a.Body, "type", str(t.ID))
		if profile != "" {
			set(a.Body, "profile", str(profile))
		}
		moveFirst(a.Body, "name", "role", "type", "profile")
	}
}

// customRules adds the custom rules, a list of rules with an id, to the
// profile's rules map.
func customRules(c *conv, f *Field, path Path, rules *Node) {
	if f.Value.Kind != List {
		if f.Value.Kind != Null {
			c.res.NotCarried = append(c.res.NotCarried, Entry{path.String(), f.KeyPos, "expected a list of rules, found a " + f.Value.Kind.String()})
		}
		return
	}
	for i, item := range f.Value.Items {
		p := path.index(i)
		id := item.Get("id").Str()
		if item.Kind != Map || id == "" {
			c.res.NotCarried = append(c.res.NotCarried, Entry{p.String(), item.Pos, "a custom rule needs an id"})
			continue
		}
		c.w.walk(item, p, child(rules, id))
	}
}
