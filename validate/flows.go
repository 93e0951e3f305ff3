package validate

import (
	"slices"
	"strings"

	"github.com/charter-dev/charter/model"
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
			for j, n := range s.Next {
				np := sp.Child("next", Index(j))
				if !slices.Contains(steps, n.Step) {
					v.report("reference", np.Child("step"), "unknown step %q%s", n.Step, didYouMean(n.Step, steps, "steps"))
				}
				if n.If != nil && ok {
					v.outputField(np.Child("if", "field"), s.Agent, a, n.If.Field)
				}
			}
			if !ok {
				continue
			}
			for j, key := range s.Passes {
				v.outputField(sp.Child("passes", Index(j)), s.Agent, a, key)
			}
		}
	}
}

// outputField checks that a dotted path names a property of an agent's
// output schema.
func (v *validator) outputField(p Path, id string, a *model.Agent, field string) {
	if a.Output == nil {
		v.report("flow", p, "agent %s declares no output, so its output has no %q: declare agents.%s.output", id, field, id)
		return
	}
	schema := a.Output
	for part := range strings.SplitSeq(field, ".") {
		props := OutputProperties(schema)
		sub, ok := props[part].(map[string]any)
		if !ok {
			v.report("flow", p, "agent %s's output has no property %q%s", id, field, didYouMean(part, names(props), "properties"))
			return
		}
		schema = sub
	}
}

// OutputProperties returns the properties an object schema declares.
func OutputProperties(schema map[string]any) map[string]any {
	props, _ := schema["properties"].(map[string]any)
	return props
}
