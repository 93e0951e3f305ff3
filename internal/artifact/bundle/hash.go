package bundle

import (
	"github.com/charter-dev/charter/compiler"
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
		out = removeMember(out, key)
	}
	return out
}

// removeMember returns the canonical object obj without its top-level
// member key (obj itself when it has none).
func removeMember(obj []byte, key string) []byte {
	if len(obj) < 2 || obj[0] != '{' {
		return obj
	}
	for i := 1; i < len(obj)-1; {
		t := &transformer{src: obj, pos: i}
		k, err := t.str()
		if err != nil {
			return obj
		}
		end := memberEnd(obj, t.pos+1) // the comma or closing brace after the value
		if end >= len(obj) {
			return obj // not canonical
		}
		if k == key {
			out := make([]byte, 0, len(obj))
			switch {
			case obj[end] == ',': // not the last: drop "key":value,
				out = append(append(out, obj[:i]...), obj[end+1:]...)
			case i > 1: // the last of several: drop ,"key":value
				out = append(append(out, obj[:i-1]...), obj[end:]...)
			default: // the only member
				out = append(out, '{', '}')
			}
			return out
		}
		if obj[end] != ',' {
			return obj
		}
		i = end + 1
	}
	return obj
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
