package bundle

import (
	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/canonjson"
	"github.com/charter-dev/charter/render"
)

// RuntimeState lists the members of agent.json that are runtime state,
// not charter: the content hash leaves them out, so that changing them
// makes no new version (`charter log`). An agent's status (active,
// on_leave, terminated) changes as the agent is run; the identity design
// versions only charter changes.
var RuntimeState = []string{"status"}

// hashed returns the canonical agent.json canon without the members of
// RuntimeState: the bytes the content hash is taken of.
func hashed(canon []byte) []byte {
	out := canon
	for _, key := range RuntimeState {
		out = canonjson.RemoveMember(out, key)
	}
	return out
}

// ContentHashes returns every agent's content hash (agent.json's
// content_hash), by agent id.
func ContentHashes(prog *compiler.Program) (map[string]string, error) {
	out := map[string]string{}
	for _, a := range prog.Agents {
		p, err := render.Render(prog, a)
		if err != nil {
			return nil, err
		}
		h, err := ContentHash(a, p.String())
		if err != nil {
			return nil, err
		}
		out[a.ID] = h
	}
	return out, nil
}
