package rules

import (
	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"

	"github.com/charter-dev/charter/internal/output/secret"
)

// secretFunctions declares containsSecret(string) bool: whether a text
// holds a value shaped like a credential, as charter's one detector
// (internal/output/secret) finds it, the detector every output of charter
// is redacted with. The coding profile's no_secrets_in_code rule asks it,
// so that the rule knows every shape the detector knows (sk-proj-,
// sk-ant-, github_pat_, xoxb-, AIza, sk_live_, JWTs, passwords in URLs,
// AWS secret keys, PEM private keys).
func secretFunctions() cel.EnvOption {
	return cel.Function("containsSecret",
		cel.Overload("contains_secret_string", []*cel.Type{cel.StringType}, cel.BoolType,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				s, ok := v.(types.String)
				if !ok {
					return types.Bool(false)
				}
				return types.Bool(secret.MayContain(string(s)) && len(secret.Find(string(s))) > 0)
			})))
}
