package validate

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/charter-dev/charter/internal/config/model"
)

// flows checks each flow's references: step names, agents, the steps
// next names, and the output keys passes and if name.
func (v *validator) flows() {
	c := v.res.Config
	for _, name := range names(c.Flows) {
		f := c.Flows[name]
		p := Path{"flows", name}
		if len(f.Steps) == 0 {
			v.report("flow", p.Child("steps"), "a flow needs at least one step; the first one starts it")
			continue
		}
		for i, in := range f.Inputs {
			if slices.Index(f.Inputs, in) < i {
				v.report("flow", p.Child("inputs", Index(i)), "input %q is listed twice; list each once", in)
			}
		}
		var steps []string
		for _, s := range f.Steps {
			steps = append(steps, s.Name)
		}
		for i, s := range f.Steps {
			sp := p.Child("steps", Index(i))
			if slices.Index(steps, s.Name) < i {
				v.report("flow", sp.Child("name"), "step %q is declared twice; give each step its own name", s.Name)
			}
			a, ok := c.Agents[s.Agent]
			v.ref(sp.Child("agent"), "agents", "agent", s.Agent, ok, names(c.Agents))
			always := -1 // the first next without an if
			for j, n := range s.Next {
				np := sp.Child("next", Index(j))
				if !slices.Contains(steps, n.Step) {
					v.report("reference", np.Child("step"), "unknown step %q%s", n.Step, didYouMean(n.Step, steps, "steps"))
				}
				if always >= 0 {
					// next is tried in order: nothing after an entry
					// without an if is ever taken.
					v.report("flow", np, "this next (step %s) is never taken: next[%d] before it has no if and always holds; give next[%d] an if, or remove this one", n.Step, always, always)
				} else if n.If == nil {
					always = j
				}
				if n.If != nil && ok {
					if field := v.outputField(np.Child("if", "field"), s.Agent, a, n.If.Field); field != nil {
						v.outputEquals(np.Child("if", "equals"), s.Agent, n.If, field)
					}
				}
			}
			if !ok {
				continue
			}
			for j, key := range s.Passes {
				v.outputField(sp.Child("passes", Index(j)), s.Agent, a, key)
			}
		}
		if !canEnd(f) {
			v.report("flow", p.Child("steps"), "flow %s never ends: every step it reaches has a next without an if, so one always follows; give a next an if (the flow ends at a step where none holds), or leave a step without next", name)
		}
	}
}

// canEnd reports whether a step reached from the first one can end the
// flow: one whose next has no entry without an if.
func canEnd(f *model.Flow) bool {
	seen := map[string]bool{}
	todo := []string{f.Steps[0].Name}
	for len(todo) > 0 {
		name := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		s := f.Step(name)
		if s == nil || seen[name] {
			continue
		}
		seen[name] = true
		if !slices.ContainsFunc(s.Next, func(n model.FlowNext) bool { return n.If == nil }) {
			return true
		}
		for _, n := range s.Next {
			todo = append(todo, n.Step)
		}
	}
	return false
}

// outputField checks that a dotted path names a property of an agent's
// output schema, and returns that property's schema (nil when it names
// none).
func (v *validator) outputField(p Path, id string, a *model.Agent, field string) map[string]any {
	if a.Output == nil {
		v.report("flow", p, "agent %s declares no output, so its output has no %q: declare agents.%s.output", id, field, id)
		return nil
	}
	schema := a.Output
	var at []string // the parts found so far
	for part := range strings.SplitSeq(field, ".") {
		props := OutputProperties(schema)
		sub, ok := props[part].(map[string]any)
		if !ok {
			// Suggest the whole path, as field is written.
			var whole []string
			for _, n := range names(props) {
				whole = append(whole, strings.Join(append(slices.Clone(at), n), "."))
			}
			v.report("flow", p, "agent %s's output has no property %q%s", id, field, didYouMean(strings.Join(append(at, part), "."), whole, "properties"))
			return nil
		}
		at = append(at, part)
		schema = sub
	}
	return schema
}

// outputEquals checks that the value an if compares with is one the
// output property can hold (its enum, its const): a condition that can
// never hold leaves its step never run.
func (v *validator) outputEquals(p Path, id string, cond *model.FlowCond, field map[string]any) {
	allowed, _ := field["enum"].([]any)
	if c, ok := field["const"]; ok {
		allowed = []any{c}
	}
	if allowed == nil || slices.ContainsFunc(allowed, func(x any) bool { return reflect.DeepEqual(x, cond.Equals) }) {
		return
	}
	var opts []string
	for _, x := range allowed {
		b, _ := json.Marshal(x)
		opts = append(opts, string(b))
	}
	want, _ := json.Marshal(cond.Equals)
	hint := "; the values it can hold: " + strings.Join(opts, ", ")
	if s, ok := cond.Equals.(string); ok {
		if c, ok := closest(s, stringsOf(allowed)); ok {
			hint = fmt.Sprintf("; did you mean %q?", c)
		}
	}
	v.report("flow", p, "agent %s's output %s is never %s, so this condition never holds%s", id, cond.Field, want, hint)
}

// stringsOf returns the strings among values.
func stringsOf(values []any) []string {
	var out []string
	for _, x := range values {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// OutputProperties returns the properties an object schema declares.
func OutputProperties(schema map[string]any) map[string]any {
	props, _ := schema["properties"].(map[string]any)
	return props
}
