package bundlefile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/charter-dev/charter/internal/config/model"
)

// DelegationFile is the bundle's delegation graph: every agent's
// delegates_to, as its agent.json says it. A runtime that walks the
// graph (which agents the session's agent may start, through the agents
// it may start) reads and hashes this one small file instead of every
// agent.json on the way, each of which carries its compiled prompt.
const DelegationFile = "delegation.json"

// Delegation returns the bundle's delegation graph (delegation.json):
// each agent's delegates_to, by agent id. It is read once, checked
// against the manifest like every file the runtime reads, and must name
// exactly the bundle's agents. ok is false when the manifest lists no
// delegation.json (a bundle an older charter built): each agent's
// delegates_to is then in its agent.json alone.
func (r *Runtime) Delegation() (graph map[string][]string, ok bool, err error) {
	if _, listed := r.file(DelegationFile); !listed {
		return nil, false, nil
	}
	r.delegationOnce.Do(func() { r.delegation, r.delegationErr = r.readDelegation() })
	return r.delegation, r.delegationErr == nil, r.delegationErr
}

func (r *Runtime) readDelegation() (map[string][]string, error) {
	b, err := r.read(DelegationFile)
	if err != nil {
		return nil, err
	}
	g, err := ParseDelegation(b, r.AgentIDs())
	if err != nil {
		return nil, fmt.Errorf("%s/%s: %w; build the bundle again", r.dir, DelegationFile, err)
	}
	return g, nil
}

// ParseDelegation decodes delegation.json and checks it against the
// bundle's agents (ids, sorted): it must list every one of them and no
// other, and each may start only agents of the bundle, each named once.
func ParseDelegation(b []byte, ids []string) (map[string][]string, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var doc struct {
		DelegatesTo *map[string][]string `json:"delegates_to"`
	}
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("not the delegation graph charter writes: %v", err)
	}
	if doc.DelegatesTo == nil {
		return nil, fmt.Errorf("no delegates_to")
	}
	g := *doc.DelegatesTo
	for id, ds := range g {
		if _, found := slices.BinarySearch(ids, id); !found || !model.IsSlug(id) {
			return nil, fmt.Errorf("it names %q, which is no agent of the bundle", id)
		}
		if ds == nil {
			return nil, fmt.Errorf("agent %s has no delegates_to list", id)
		}
		for i, d := range ds {
			if _, found := slices.BinarySearch(ids, d); !found {
				return nil, fmt.Errorf("agent %s may start %q, which is no agent of the bundle", id, d)
			}
			if i > 0 && ds[i-1] >= d {
				return nil, fmt.Errorf("the delegates_to of agent %s are not sorted, each once", id)
			}
		}
	}
	if len(g) != len(ids) {
		for _, id := range ids {
			if _, listed := g[id]; !listed {
				return nil, fmt.Errorf("it lists no agent %s, which the bundle holds", id)
			}
		}
	}
	return g, nil
}
