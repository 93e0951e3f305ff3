package diff

import (
	"encoding/json"
	"slices"
	"strings"
)

// Agents diffs the agent documents (agent.json objects, by id) of two
// versions and classes each change by what it does to the agent's
// permissions.
//
// An agent added is the widest change there is: a change of its own,
// widened ("agent added"), then every field of it as an added field of a
// changed agent is shown and classed (the tools it may call, its access
// level, authority and budget widen); a removed agent the other way.
func Agents(old, new map[string]map[string]any) []Change {
	var out []Change
	for _, id := range unionKeys(old, new) {
		var o, n any
		if d, ok := old[id]; ok {
			o = strip(d)
		}
		if d, ok := new[id]; ok {
			n = strip(d)
		}
		order := strictness(new[id], old[id])
		prefix := []string{"agents", id}
		switch {
		case o == nil && n != nil:
			out = append(out, Change{Path: joinPath(prefix), Change: Added, Effect: Widened, Agent: id, Reason: "agent added", segs: prefix})
			o = emptyLike(n)
		case n == nil && o != nil:
			out = append(out, Change{Path: joinPath(prefix), Change: Removed, Effect: Narrowed, Agent: id, Reason: "agent removed", segs: prefix})
			n = emptyLike(o)
		}
		for _, c := range Values(prefix, o, n) {
			c.Agent = id
			classify(&c)
			classifyOption(&c, order)
			out = append(out, c)
		}
	}
	Sort(out)
	return out
}

// emptyLike returns v with its maps and lists emptied all the way down
// (its scalars absent): what an agent that does not exist has of each
// field, so that each of a new agent's fields is shown added.
func emptyLike(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if em := emptyLike(e); em != nil {
				out[k] = em
			}
		}
		return out
	case []any:
		return []any{}
	}
	return nil
}

// strip drops fields that only restate others (the hash; the runtimes
// table, which every agent carries and the diff shows once, under
// runtimes) or say where, not what (the declarations' positions).
func strip(doc map[string]any) map[string]any {
	out := make(map[string]any, len(doc))
	for k, v := range doc {
		if k != "content_hash" && k != "tools_declared_at" && k != "runtime_tools" && k != "behavior_strictness" {
			out[k] = v
		}
	}
	return out
}

var (
	accessRank   = []string{"sandboxed", "restricted", "standard", "custom", "elevated"}
	autonomyRank = []string{"locked", "supervised", "semi", "full"}
	actionRank   = []string{"remind", "warn", "ask", "block"}
)

// strictness returns the options' orders of an agent's settings
// (agent.json's behavior_strictness: "category.setting" -> options,
// strictest first), from the first document that has them.
func strictness(docs ...map[string]any) map[string][]string {
	for _, d := range docs {
		raw, ok := d["behavior_strictness"].(map[string]any)
		if !ok {
			continue
		}
		out := map[string][]string{}
		for k, v := range raw {
			list, _ := v.([]any)
			for _, o := range list {
				if s, ok := o.(string); ok {
					out[k] = append(out[k], s)
				}
			}
		}
		return out
	}
	return nil
}

// classifyOption classes a change of a behavior setting whose category
// orders its options: toward the loose end widens, toward the strict end
// narrows.
func classifyOption(c *Change, order map[string][]string) {
	p := c.segs[2:]
	if !match(p, "behavior", "*", "*") || c.Change != Modified {
		return
	}
	ranks := order[p[1]+"."+p[2]]
	if ranks == nil {
		return
	}
	rank(c, ranks, "option")
	switch c.Effect {
	case Widened:
		c.Reason = "loosened"
	case Narrowed:
		c.Reason = "made stricter"
	}
}

// classify sets Effect and Reason for a change under agents.<id>.
func classify(c *Change) {
	p := c.segs[2:] // after agents.<id>
	if len(p) == 0 {
		return
	}
	set := func(effect, reason string) { c.Effect, c.Reason = effect, reason }
	grow := func(what string) {
		switch c.Change {
		case Added:
			set(Widened, what+" added")
		case Removed:
			set(Narrowed, what+" removed")
		}
	}
	switch {
	case match(p, "effective_tools", "*"), match(p, "effective_tools"):
		// What the agent may call, as the compiler decided it: the one
		// list that says it whatever changed (a behavior, a level).
		grow("callable tool")
	case match(p, "tools", "allowed", "*"):
		grow("allowed tool")
	case match(p, "tools", "allowed"):
		grow("allowed tools")
	case match(p, "tools", "denied", "*"), match(p, "tools", "denied"):
		switch c.Change {
		case Added:
			set(Narrowed, "denied tool added")
		case Removed:
			set(Widened, "denied tool removed")
		}
	case match(p, "tools", "access_level"):
		rank(c, accessRank, "access level")
	case match(p, "autonomy_level"):
		rank(c, autonomyRank, "autonomy level")
	case match(p, "max_turns"), match(p, "timeout"):
		what := map[string]string{"max_turns": "turn limit", "timeout": "time limit"}[p[0]]
		switch o, n := number(c.Old), number(c.New); {
		case c.Change == Removed, c.Change == Modified && n > o:
			set(Widened, what+" raised")
		case c.Change == Added, c.Change == Modified && n < o:
			set(Narrowed, what+" lowered")
		}
	case match(p, "authority", "budget_limit"):
		o, n := number(c.Old), number(c.New)
		switch {
		case n > o:
			set(Widened, "budget limit raised")
		case n < o:
			set(Narrowed, "budget limit lowered")
		}
	case match(p, "authority", "can_approve", "*"), match(p, "authority", "can_approve"):
		grow("approval right")
	case match(p, "authority", "can_delegate_to", "*"), match(p, "authority", "can_delegate_to"):
		grow("delegate")
	case match(p, "provided_tools", "*"):
		grow("tool " + strings.Trim(p[1], "[]"))
	case match(p, "provided_tools"):
		grow("provided tools")
	case match(p, "behaviors", "*"):
		if bringsTools(c) {
			grow("behavior that brings tools")
		}
	case match(p, "profile", "rules", "*", "enabled"):
		switch {
		case string(c.New) == "false":
			set(Widened, "rule "+strings.Trim(p[2], "[]")+" disabled")
		case string(c.Old) == "false":
			set(Narrowed, "rule "+strings.Trim(p[2], "[]")+" enabled")
		}
	case match(p, "profile", "rules", "*", "action"):
		rank(c, actionRank, "rule "+strings.Trim(p[2], "[]")+" action")
		// A weaker action widens: block > warn > remind.
		switch c.Effect {
		case Widened:
			c.Effect, c.Reason = Narrowed, strings.Replace(c.Reason, "raised", "strengthened", 1)
		case Narrowed:
			c.Effect, c.Reason = Widened, strings.Replace(c.Reason, "lowered", "weakened", 1)
		}
	case match(p, "profile", "rules", "*"):
		switch c.Change {
		case Added:
			set(Narrowed, "rule "+strings.Trim(p[2], "[]")+" added")
		case Removed:
			set(Widened, "rule "+strings.Trim(p[2], "[]")+" removed")
		}
	case match(p, "profile"):
		switch c.Change {
		case Added:
			set(Narrowed, "rule profile added")
		case Removed:
			set(Widened, "rule profile removed")
		}
	}
}

// match reports whether p is exactly pattern, "*" matching one label.
func match(p []string, pattern ...string) bool {
	if len(p) != len(pattern) {
		return false
	}
	for i := range p {
		if pattern[i] != "*" && pattern[i] != p[i] {
			return false
		}
	}
	return true
}

func rank(c *Change, order []string, what string) {
	var o, n string
	json.Unmarshal(c.Old, &o)
	json.Unmarshal(c.New, &n)
	oi, ni := slices.Index(order, o), slices.Index(order, n)
	switch {
	case ni > oi:
		c.Effect, c.Reason = Widened, what+" raised"
	case ni < oi:
		c.Effect, c.Reason = Narrowed, what+" lowered"
	}
}

func number(raw json.RawMessage) float64 {
	var f float64
	json.Unmarshal(raw, &f)
	return f
}

// bringsTools reports whether a behavior change adds or removes a behavior
// of kind tools.
func bringsTools(c *Change) bool {
	raw := c.New
	if c.Change == Removed {
		raw = c.Old
	}
	var b struct{ Kind string }
	json.Unmarshal(raw, &b)
	return b.Kind == "tools"
}

// ClassifyDeclaration sets Effect and Reason for a change to a declaration
// other than an agent, where it touches what agents may do: a runtime's
// name for a tool that now reaches a tool (calls by that name pass on to
// the tool's permissions, where an agent with an allow-list blocked them)
// widens; one that no longer does narrows.
func ClassifyDeclaration(c *Change) {
	if len(c.segs) < 3 || c.segs[0] != "runtimes" || c.segs[2] != "tools" {
		return
	}
	switch {
	case len(c.segs) == 4 && c.Change != Removed, len(c.segs) == 3 && c.Change == Added:
		c.Effect, c.Reason = Widened, "runtime tool name mapped"
	case c.Change == Removed:
		c.Effect, c.Reason = Narrowed, "runtime tool name unmapped"
	}
}
