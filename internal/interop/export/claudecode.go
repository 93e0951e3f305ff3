// Package export writes an agent in another runtime's format. For Claude
// Code that is a subagent file (.claude/agents/NAME.md): YAML front matter,
// written by a YAML encoder, and the compiled prompt as the body.
//
// The file never gives the subagent more than the agent may do. Its tools
// are the Claude Code names (the runtimes table's "claude-code" entry) of
// the agent's effective tools; disallowedTools names those of the tools it
// is denied; and whenever charter knows anything about the agent's tools
// the tools line is written, an empty list when nothing maps: Claude Code
// gives a subagent without one every tool.
package export

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/charter-dev/charter/compiler"
)

// Runtime is the name of Claude Code's entry in the runtimes table.
const Runtime = "claude-code"

// frontMatter is the subagent's YAML header, in the order written.
type frontMatter struct {
	Name            string `yaml:"name"`
	Description     string `yaml:"description"`
	Tools           any    `yaml:"tools,omitempty"`
	DisallowedTools string `yaml:"disallowedTools,omitempty"`
	Model           string `yaml:"model"`
	// MaxTurns is the agent's max_turns; Claude Code has no field for a
	// time limit.
	MaxTurns int `yaml:"maxTurns,omitempty"`
}

// ClaudeCodeSubagent returns the subagent file of agent a, whose card description
// and compiled prompt are given. notes say what the file cannot carry (a
// tool Claude Code has no name for), for stderr.
func ClaudeCodeSubagent(a *compiler.Agent, description, prompt string) (file []byte, notes []string, err error) {
	names := a.RuntimeTools[Runtime]
	fm := frontMatter{Name: strings.ReplaceAll(a.ID, "_", "-"), Description: description, Model: modelAlias(a), MaxTurns: a.Decl.MaxTurns}
	if a.Decl.Timeout > 0 {
		notes = append(notes, fmt.Sprintf("%s: Claude Code's subagent file has no field for a time limit, so timeout (%gs) is not carried; the runtime that starts the subagent enforces it", a.ID, a.Decl.Timeout))
	}

	var tools, unmapped []string
	for _, t := range a.Effective {
		n := runtimeNames(names, t.Name)
		if len(n) == 0 {
			unmapped = append(unmapped, t.Name)
		}
		tools = append(tools, n...)
	}
	var denied []string
	for _, e := range a.Excluded {
		denied = append(denied, runtimeNames(names, e.Name)...)
	}
	// The tools tools.denied takes away that no behavior provides (a
	// denied group's, a runtime's own name): eval and the hook block
	// them (rules.ReadGate), so the subagent does not get them.
	for _, d := range a.DeniedTools {
		denied = append(denied, runtimeNames(names, d.Name)...)
		if _, own := names[d.Name]; own {
			denied = append(denied, d.Name)
		}
	}
	tools, denied = uniq(tools), uniq(denied)
	// A name both tools and denied give (two charter tools with one
	// runtime name cannot be; validate refuses it) stays denied.
	tools = slices.DeleteFunc(tools, func(n string) bool { return slices.Contains(denied, n) })

	if knowsTools(a) {
		if len(tools) == 0 {
			fm.Tools = []string{} // none: omitting the line would give every tool
			notes = append(notes, fmt.Sprintf("%s: none of the agent's tools has a Claude Code name, so the subagent gets no tool (tools: []); map them under runtimes.%q.tools", a.ID, Runtime))
		} else {
			fm.Tools = strings.Join(tools, ", ")
		}
	}
	if len(unmapped) > 0 && len(tools) > 0 {
		notes = append(notes, fmt.Sprintf("%s: %s %s no Claude Code name, so the subagent does not get %s; map %s under runtimes.%q.tools",
			a.ID, strings.Join(unmapped, ", "), plural(len(unmapped), "has", "have"), plural(len(unmapped), "it", "them"), plural(len(unmapped), "it", "them"), Runtime))
	}
	fm.DisallowedTools = strings.Join(denied, ", ")

	var node yaml.Node
	if err := node.Encode(fm); err != nil {
		return nil, nil, fmt.Errorf("agent %s: writing the front matter: %v", a.ID, err)
	}
	// The description is free text: double-quoted, every character
	// escaped as needed. (The encoder's block style for text with line
	// breaks writes a leading tab that no parser reads back.)
	for i := 0; i+1 < len(node.Content); i += 2 {
		if node.Content[i].Value == "description" {
			node.Content[i+1].Style = yaml.DoubleQuotedStyle
		}
	}
	var b bytes.Buffer
	b.WriteString("---\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&node); err != nil {
		return nil, nil, fmt.Errorf("agent %s: writing the front matter: %v", a.ID, err)
	}
	if err := enc.Close(); err != nil {
		return nil, nil, err
	}
	b.WriteString("---\n\n")
	b.WriteString(prompt)
	return b.Bytes(), notes, nil
}

// knowsTools reports whether charter knows anything of the agent's tools:
// its behaviors provide some, or it restricts them. Only then is a tools
// line written; an agent that declares nothing keeps Claude Code's tools.
func knowsTools(a *compiler.Agent) bool {
	t := a.Decl.Tools
	return len(a.Tools) > 0 || a.Restricted() || t.Denied != nil || t.AccessLevel != ""
}

// runtimeNames returns Claude Code's names for a charter tool, sorted.
func runtimeNames(names map[string]string, tool string) []string {
	var out []string
	for n, t := range names {
		if t == tool {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// uniq sorts names and drops repeats.
func uniq(names []string) []string {
	slices.Sort(names)
	return slices.Compact(names)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// modelAlias is opus, sonnet or haiku when the agent's model id names one, else
// inherit.
func modelAlias(a *compiler.Agent) string {
	if a.Decl.Model != nil {
		for _, m := range []string{"opus", "sonnet", "haiku"} {
			if strings.Contains(strings.ToLower(a.Decl.Model.ModelID), m) {
				return m
			}
		}
	}
	return "inherit"
}
