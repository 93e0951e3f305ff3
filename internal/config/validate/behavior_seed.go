package validate

import (
	"slices"
	"time"

	"github.com/charter-dev/charter/internal/config/model"
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

// agentTypeParts checks an agent type's schema_version, onboarding
// schema, default actions and variable defaults.
func (v *validator) agentTypeParts(slug string, t *model.AgentType) {
	p := Path{"agentTypes", slug}
	if t.SchemaVersion != "" && t.SchemaVersion != model.BehaviorSchemaVersion {
		v.report("schema", p.Child("schema_version"), "behavior schema version %q is not one charter implements: charter implements %q; write %q, or leave schema_version out", t.SchemaVersion, model.BehaviorSchemaVersion, model.BehaviorSchemaVersion)
	}
	if t.OnboardingSchema != nil {
		v.jsonSchema(p.Child("onboarding_schema"), t.OnboardingSchema)
	}
	for i, a := range t.DefaultActions {
		if slices.Index(t.DefaultActions, a) < i {
			v.report("schema", p.Child("default_actions", Index(i)), "action %q is listed twice; list each once", a)
		}
	}
	for _, name := range names(t.Variables) {
		if vr := t.Variables[name]; vr.Required && vr.Default != "" {
			v.report("schema", p.Child("variables", name, "default"), "a required variable with a default is never missing: drop required, or the default")
		}
	}
}
