package bundle

import (
	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/config/model"
)

// typeParts adds to an agent's resolved document what its type declares
// for runtimes: the behavior schema version (the seed's
// behavior_schema_version, "1.0" unless the type says), the onboarding
// schema and the default actions.
func typeParts(a *compiler.Agent, resolved map[string]any) {
	version := model.BehaviorSchemaVersion
	if a.Type != nil && a.Type.SchemaVersion != "" {
		version = a.Type.SchemaVersion
	}
	resolved["behavior_schema_version"] = version
	if a.Type == nil {
		return
	}
	if a.Type.OnboardingSchema != nil {
		resolved["onboarding_schema"] = a.Type.OnboardingSchema
	}
	if len(a.Type.DefaultActions) > 0 {
		resolved["default_actions"] = a.Type.DefaultActions
	}
}
