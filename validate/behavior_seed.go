package validate

import (
	"slices"
	"time"

	"github.com/charter-dev/charter/model"
)

// behaviorTypeParts checks what a behavior type declares beside its
// parameters: each tool's parameters as a JSON Schema, and events listed
// once each.
func (v *validator) behaviorTypeParts(name string, bt *model.BehaviorType) {
	p := Path{"behaviorTypes", name}
	for _, tname := range names(bt.Tools) {
		if params := bt.Tools[tname].Parameters; params != nil {
			v.jsonSchema(p.Child("tools", tname, "parameters"), params)
		}
	}
	for i, ev := range bt.Events {
		if slices.Index(bt.Events, ev) < i {
			v.report("schema", p.Child("events", Index(i)), "event %q is listed twice; list each event once", ev)
		}
	}
}

// jsonSchema reports every problem of the JSON Schema doc declared at path.
func (v *validator) jsonSchema(path Path, doc map[string]any) {
	for _, prob := range jsonSchemaProblems(doc) {
		v.report("json-schema", path.Child(prob.at...), "%s", prob.msg)
	}
}

// agentOutput checks an agent's output as a JSON Schema, and its
// hiring_date as a date.
func (v *validator) agentOutput(id string, a *model.Agent) {
	if a.Output != nil {
		v.jsonSchema(Path{"agents", id, "output"}, a.Output)
	}
	if a.HiringDate != "" {
		if _, err := time.Parse(time.DateOnly, a.HiringDate); err != nil {
			v.report("schema", Path{"agents", id, "hiring_date"}, "%q is not a date: write it as YYYY-MM-DD, such as \"2026-02-27\"", a.HiringDate)
		}
	}
}
