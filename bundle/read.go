package bundle

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/charter-dev/charter/rules"
	"github.com/charter-dev/charter/validate"
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

// ReadProfile reads a flattened profile from the bundle at dir: that of
// agent, when agent is set, else the profile called name.
func ReadProfile(dir, agent, name string) (rules.Profile, error) {
	if agent != "" {
		if !validate.IsSlug(agent) {
			return rules.Profile{}, fmt.Errorf("agent id %q is not a slug", agent)
		}
		b, err := os.ReadFile(filepath.Join(dir, "agents", agent, "agent.json"))
		if err != nil {
			return rules.Profile{}, &NotInBundleError{Kind: "agent", Name: agent, Dir: dir, Err: err}
		}
		var doc struct {
			Profile *struct{ Name string } `json:"profile"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			return rules.Profile{}, fmt.Errorf("%s/agents/%s/agent.json: %w", dir, agent, err)
		}
		if doc.Profile == nil {
			return rules.Profile{}, fmt.Errorf("agent %s has no rule profile", agent)
		}
		name = doc.Profile.Name
	}
	if !validate.IsSlug(name) {
		return rules.Profile{}, fmt.Errorf("profile name %q is not a slug", name)
	}
	f, err := os.Open(filepath.Join(dir, "profiles", name+".json"))
	if err != nil {
		return rules.Profile{}, &NotInBundleError{Kind: "profile", Name: name, Dir: dir, Err: err}
	}
	defer f.Close()
	p, err := rules.DecodeProfile(f)
	if err != nil {
		return rules.Profile{}, err
	}
	return p, nil
}
