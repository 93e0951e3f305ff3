// Package adkconfig checks, for tests, an ADK Agent Config
// (root_agent.yaml) as adk-python's loader judges it. adk-python cannot
// be installed here (it is on PyPI only), and ADK-Go's loader, which the
// tests do run (internal/testkit/adkgo), judges only part of a file: it
// loads unknown fields, does not read before_tool_callbacks, and cannot
// load a tool that names a Python object. So the file is checked
// against adk-python's published AgentConfig.json (testdata, commit
// 4810ddcf), on the branch the loader picks (LlmAgentConfig when
// agent_class is absent or LlmAgent; that branch refuses unknown fields,
// as the loader's models do: the schema's top-level oneOf cannot be used,
// since a valid LlmAgent config also matches BaseAgentConfig), plus the
// checks that live in adk-python's code: the name is a Python identifier
// and not "user", not both model and model_code, and a callback is a
// dotted module.function name.
package adkconfig

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

//go:embed testdata/adk-AgentConfig.json
var schemaJSON []byte

var (
	once   sync.Once
	schema *jsonschema.Schema
	errSch error
)

func llmAgentSchema() (*jsonschema.Schema, error) {
	once.Do(func() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
		if err != nil {
			errSch = err
			return
		}
		c := jsonschema.NewCompiler()
		if errSch = c.AddResource("adk-AgentConfig.json", doc); errSch != nil {
			return
		}
		schema, errSch = c.Compile("adk-AgentConfig.json#/$defs/LlmAgentConfig")
	})
	return schema, errSch
}

var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Check returns what ADK's loader would refuse in the YAML file src, nil
// when it would load it.
func Check(src []byte) error {
	var doc any
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return fmt.Errorf("not YAML: %v", err)
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return err
	}
	m, ok := inst.(map[string]any)
	if !ok {
		return fmt.Errorf("not a mapping")
	}
	if c, ok := m["agent_class"].(string); ok && c != "LlmAgent" {
		return fmt.Errorf("agent_class %q: only LlmAgent configs are checked", c)
	}
	sch, err := llmAgentSchema()
	if err != nil {
		return err
	}
	if err := sch.Validate(inst); err != nil {
		return err
	}
	name, _ := m["name"].(string)
	if !identifier.MatchString(name) {
		return fmt.Errorf("name %q: Found invalid agent name: it must be a valid identifier (BaseAgent.validate_name)", name)
	}
	if name == "user" {
		return fmt.Errorf("name: Agent name cannot be `user`")
	}
	if m["model"] != nil && m["model_code"] != nil {
		return fmt.Errorf("only one of model and model_code")
	}
	for _, k := range []string{"before_agent_callbacks", "after_agent_callbacks", "before_model_callbacks", "after_model_callbacks", "before_tool_callbacks", "after_tool_callbacks"} {
		cbs, _ := m[k].([]any)
		for _, cb := range cbs {
			n, _ := cb.(map[string]any)["name"].(string)
			if !strings.Contains(n, ".") {
				return fmt.Errorf("%s: %q is not a module.function name (resolve_code_reference)", k, n)
			}
		}
	}
	return nil
}
