package bundle

import "github.com/charter-dev/charter/compiler"

// ExclusionSourcesKey is the member of agent.json that says where each
// exclusion of excluded_tools is declared (tool name -> file:line:col). It
// is not part of the content hash.
const ExclusionSourcesKey = "excluded_tools_declared_at"

func exclusionSources(a *compiler.Agent) map[string]string {
	var out map[string]string
	for _, e := range a.Excluded {
		if p := e.Pos.String(); p != "" {
			if out == nil {
				out = map[string]string{}
			}
			out[e.Name] = p
		}
	}
	return out
}
