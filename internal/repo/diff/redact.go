package diff

import "github.com/charter-dev/charter/internal/output/secret"

// redactNamed returns v with every literal credential held by a field
// named like one (api_key: "hunter2...") redacted, v itself when label is
// such a name: no shape gives those away to the output writer's detector.
func redactNamed(label string, v any) any {
	if s, ok := v.(string); ok && secret.NamedLiteral(label, s) {
		return secret.Redacted(s)
	}
	return secret.RedactNamed(v)
}
