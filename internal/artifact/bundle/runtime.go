package bundle

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/charter-dev/charter/internal/config/validate"
	"github.com/charter-dev/charter/rules"
)

// NotInBundleError is an agent or a profile a bundle does not hold.
type NotInBundleError struct {
	Kind string // "agent" or "profile"
	Name string
	Dir  string
	Err  error
}

func (e *NotInBundleError) Error() string {
	return fmt.Sprintf("%s %s is not in the bundle at %s: %v", e.Kind, e.Name, e.Dir, e.Err)
}

func (e *NotInBundleError) Unwrap() error { return e.Err }

// ReadProfile reads what a runtime judges a tool call with from the bundle
// at dir. With agent set, it is that agent's flattened profile and its
// agent.json (whose effective tools gate every call; see ReadGate); an
// agent without a profile gets the empty profile "none", so the gate
// alone judges it. Without agent, it is the profile called name, and no
// agent document.
func ReadProfile(dir, agent, name string) (rules.Profile, []byte, error) {
	var agentJSON []byte
	if agent != "" {
		if !validate.IsSlug(agent) {
			return rules.Profile{}, nil, fmt.Errorf("agent id %q is not a slug", agent)
		}
		b, err := os.ReadFile(filepath.Join(dir, "agents", agent, "agent.json"))
		if err != nil {
			return rules.Profile{}, nil, &NotInBundleError{Kind: "agent", Name: agent, Dir: dir, Err: err}
		}
		var doc struct {
			Profile *struct{ Name string } `json:"profile"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			return rules.Profile{}, nil, fmt.Errorf("%s/agents/%s/agent.json: %w", dir, agent, err)
		}
		if doc.Profile == nil {
			return rules.Profile{Name: "none"}, b, nil
		}
		name, agentJSON = doc.Profile.Name, b
	}
	if !validate.IsSlug(name) {
		return rules.Profile{}, nil, fmt.Errorf("profile name %q is not a slug", name)
	}
	f, err := os.Open(filepath.Join(dir, "profiles", name+".json"))
	if err != nil {
		return rules.Profile{}, nil, &NotInBundleError{Kind: "profile", Name: name, Dir: dir, Err: err}
	}
	defer f.Close()
	p, err := rules.DecodeProfile(f)
	if err != nil {
		return rules.Profile{}, nil, err
	}
	return p, agentJSON, nil
}
