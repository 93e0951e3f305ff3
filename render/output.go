package render

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/render/template"
)

// outputLines is the OUTPUT section: the shape the agent must return, its
// output JSON Schema on one line (keys sorted), so that the model is told
// what its caller parses.
func outputLines(a *compiler.Agent) ([]string, error) {
	if len(a.Decl.Output) == 0 {
		return nil, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(a.Decl.Output); err != nil {
		return nil, err
	}
	lines := []string{"Reply with one JSON object, and nothing else, that matches this JSON Schema:"}
	for _, l := range strings.Split(strings.TrimRight(buf.String(), "\n"), "\n") {
		lines = append(lines, template.Escape(l))
	}
	return lines, nil
}
