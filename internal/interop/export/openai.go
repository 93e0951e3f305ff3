package export

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/charter-dev/charter/compiler"
)

//go:embed assets/charter-guard.mjs
var guardModule string

// GuardModule is the file every openai-agents export imports its guard from.
const GuardModule = "charter-guard.mjs"

// openAI writes NAME.mjs per agent, an ES module an @openai/agents program
// imports, and charter-guard.mjs once.
func openAI(p *compiler.Program, agents []Agent, o Options) (Result, error) {
	const target, table = "the OpenAI Agents SDK", "openai-agents"
	ns, err := names(agents, target, func(id string) (string, error) { return id, nil })
	if err != nil {
		return Result{}, err
	}
	var r Result
	for i, a := range agents {
		mdl, err := modelName(p, a.Agent, target, table)
		if err != nil {
			return Result{}, err
		}
		var specs []map[string]any
		seen := map[string]string{}
		for _, t := range a.Effective {
			// The SDK calls a tool by its name with every character
			// but letters and digits made _: two tools must not meet.
			fn := functionName(t.Name)
			if other, dup := seen[fn]; dup {
				return Result{}, fmt.Errorf("agent %s: tools %s and %s are both %q to the OpenAI Agents SDK, which would call one for the other; rename one", a.ID, other, t.Name, fn)
			}
			seen[fn] = t.Name
			params := t.Parameters
			if params == nil {
				params = map[string]any{"type": "object", "properties": map[string]any{}, "required": []any{}, "additionalProperties": false}
			}
			specs = append(specs, map[string]any{"name": t.Name, "description": t.Description, "parameters": params, "strict": strictable(params, true)})
		}
		if specs == nil {
			specs = []map[string]any{}
		}
		r.Notes = append(r.Notes, timeoutNote(a.Agent, target)...)
		if a.Decl.MaxTurns > 0 {
			r.Notes = append(r.Notes, fmt.Sprintf("%s: %s sets max turns per run, not per agent, so max_turns (%d) is exported as maxTurns for runner.run: pass it", a.ID, target, a.Decl.MaxTurns))
		}
		var b bytes.Buffer
		fmt.Fprintf(&b, "// %s.mjs: agent %s, written by charter export --to openai-agents. Do not\n// edit; export again.\n", ns[i], a.ID)
		b.WriteString("import { Agent } from '@openai/agents';\n")
		fmt.Fprintf(&b, "import { guardedTool } from './%s';\n\n", GuardModule)
		fmt.Fprintf(&b, "/** The agent's id in charter, as the guard names it to charter serve. */\nexport const id = %s;\n\n", js(a.ID))
		fmt.Fprintf(&b, "/** The largest number of turns charter allows a run (runner.run's maxTurns); null when unlimited. */\nexport const maxTurns = %s;\n\n", maxTurnsJS(a.Decl.MaxTurns))
		fmt.Fprintf(&b, "/** Exactly the agent's effective tools: name, description, JSON Schema parameters. */\nexport const tools = %s;\n\n", jsIndent(specs))
		b.WriteString("/**\n * createAgent returns the agent. implementations maps each tool's name to the\n * function that runs it (every tool needs one); options.decideURL is the\n * charter serve endpoint (else CHARTER_DECIDE_URL, else the default in\n * " + GuardModule + ").\n */\n")
		b.WriteString("export function createAgent(implementations, options = {}) {\n  return new Agent({\n")
		fmt.Fprintf(&b, "    name: %s,\n", js(a.ID))
		fmt.Fprintf(&b, "    instructions: %s,\n", js(a.Prompt))
		if a.Description != "" {
			fmt.Fprintf(&b, "    handoffDescription: %s,\n", js(a.Description))
		}
		if mdl != "" {
			fmt.Fprintf(&b, "    model: %s,\n", js(mdl))
		}
		b.WriteString("    tools: tools.map((t) => guardedTool(id, t, implementations, options)),\n  });\n}\n")
		r.Files = append(r.Files, File{Path: ns[i] + ".mjs", Data: b.Bytes()})
	}
	url := o.DecideURL
	if url == "" {
		url = DefaultDecideURL
	}
	r.Files = append(r.Files, File{Path: GuardModule, Data: []byte(strings.Replace(guardModule, "__DECIDE_URL__", js(url), 1))})
	r.Notes = append(r.Notes, "the OpenAI Agents SDK export's tools ask charter serve (POST /v1/decide) before each call; post-call rules (remind) are not carried")
	return r, nil
}

// functionName is the name the OpenAI Agents SDK gives a function tool
// (toFunctionToolName: every character but letters and digits becomes _).
func functionName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, s)
}

// strictable reports whether the SDK's strict mode would keep a schema's
// meaning: every object closed with every property required, and no
// keyword strict mode refuses. Otherwise the tool is exported non-strict,
// its schema passed on untouched.
func strictable(s any, root bool) bool {
	switch v := s.(type) {
	case map[string]any:
		for _, k := range []string{"oneOf", "allOf", "not", "if", "then", "else", "patternProperties", "prefixItems", "dependentSchemas", "dependentRequired", "$id", "$ref"} {
			if _, ok := v[k]; ok {
				return false
			}
		}
		if props, ok := v["properties"].(map[string]any); ok || v["type"] == "object" {
			if v["type"] != "object" {
				return false
			}
			if ap, ok := v["additionalProperties"]; ok && ap != false {
				return false
			}
			req, _ := v["required"].([]any)
			if len(req) != len(props) {
				return false
			}
			for _, p := range props {
				if !strictable(p, false) {
					return false
				}
			}
		}
		if it, ok := v["items"]; ok && !strictable(it, false) {
			return false
		}
		if alts, ok := v["anyOf"].([]any); ok && slices.ContainsFunc(alts, func(x any) bool { return !strictable(x, false) }) {
			return false
		}
		return true
	case bool:
		return !root && v
	}
	return false
}

// js is s as a JavaScript string literal: JSON's quoting, which escapes
// U+2028 and U+2029 too.
func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// jsIndent is v as an indented JavaScript literal.
func jsIndent(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

func maxTurnsJS(n int) string {
	if n > 0 {
		return fmt.Sprint(n)
	}
	return "null"
}
