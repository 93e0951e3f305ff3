// Package export writes agents in the formats of the runtimes teams run
// them on: Claude Code subagents and settings, Claude Agent SDK
// AgentDefinitions, OpenAI Agents SDK modules, ADK Agent Configs, OpenCode
// and Gemini CLI agents. Each target's names for tools and models come from
// the runtimes table of the configuration (the standard library's,
// extended by users).
//
// An export is never wider than the agent: it holds exactly the runtime's
// names of the agent's effective tools; a tool with no name is left out
// and said (Options.Strict: refused); an agent with no tools gets an
// explicit empty list wherever the runtime's default is every tool; and
// the rules travel as the runtime can hold them (hooks, guards that ask
// charter), or the export says they do not.
package export

import (
	"bytes"
	"encoding/json"
	"errors"
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
	Tools           any    `yaml:"tools"`
	DisallowedTools string `yaml:"disallowedTools,omitempty"`
	Model           string `yaml:"model"`
	// MaxTurns is the agent's max_turns; Claude Code has no field for a
	// time limit.
	MaxTurns int `yaml:"maxTurns,omitempty"`
}

// claudeName is Claude Code's name for an agent: lowercase letters, digits
// and hyphens, so an id's underscores become hyphens.
func claudeName(id string) (string, error) { return strings.ReplaceAll(id, "_", "-"), nil }

// ClaudeCodeSubagent returns the subagent file of agent a (.claude/agents/
// NAME.md). notes say what the file cannot carry, for stderr.
func ClaudeCodeSubagent(p *compiler.Program, a Agent, o Options) (file []byte, notes []string, err error) {
	m, err := mapTools(p, a.Agent, "Claude Code", Runtime, o)
	if err != nil {
		return nil, nil, err
	}
	mdl, err := modelName(p, a.Agent, "Claude Code", Runtime)
	if err != nil {
		return nil, nil, err
	}
	if mdl == "" {
		mdl = "inherit"
	}
	name, _ := claudeName(a.ID)
	fm := frontMatter{Name: name, Description: a.Description, Model: mdl, MaxTurns: a.Decl.MaxTurns}
	notes = append(notes, timeoutNote(a.Agent, "Claude Code's subagent file")...)
	notes = append(notes, m.note(a.ID, "Claude Code", Runtime)...)
	if len(m.Names) == 0 {
		// None: a subagent without the line gets every tool.
		fm.Tools = []string{}
	} else {
		fm.Tools = strings.Join(m.Names, ", ")
	}
	fm.DisallowedTools = strings.Join(m.Denied, ", ")

	var node yaml.Node
	if err := node.Encode(fm); err != nil {
		return nil, nil, fmt.Errorf("agent %s: writing the front matter: %v", a.ID, err)
	}
	// The description is free text: double-quoted, every character
	// escaped as needed. (The encoder's block style for text with line
	// breaks writes a leading tab that no parser reads back.)
	quote(&node, "description")
	b, err := frontMatterFile(&node, a.Prompt)
	if err != nil {
		return nil, nil, fmt.Errorf("agent %s: writing the front matter: %v", a.ID, err)
	}
	return b, notes, nil
}

// quote double-quotes the values of the mapping's keys.
func quote(node *yaml.Node, keys ...string) {
	m := node
	if m.Kind == yaml.DocumentNode {
		m = m.Content[0]
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if slices.Contains(keys, m.Content[i].Value) && m.Content[i+1].Kind == yaml.ScalarNode {
			m.Content[i+1].Style = yaml.DoubleQuotedStyle
		}
	}
}

// frontMatterFile writes --- YAML --- and the body.
func frontMatterFile(node *yaml.Node, body string) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("---\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(node); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	b.WriteString("---\n\n")
	b.WriteString(body)
	return b.Bytes(), nil
}

// claudeCode writes agents/NAME.md per agent and settings.json once.
func claudeCode(p *compiler.Program, agents []Agent, o Options) (Result, error) {
	ns, err := names(agents, "Claude Code", claudeName)
	if err != nil {
		return Result{}, err
	}
	var r Result
	allowed := map[string]bool{}
	for i, a := range agents {
		f, notes, err := ClaudeCodeSubagent(p, a, o)
		if err != nil {
			return Result{}, err
		}
		r.Files = append(r.Files, File{Path: "agents/" + ns[i] + ".md", Data: f})
		r.Notes = append(r.Notes, notes...)
		m, _ := mapTools(p, a.Agent, "Claude Code", Runtime, Options{})
		for _, n := range m.Names {
			allowed[n] = true
		}
	}
	main, err := mainAgent(p, agents, o)
	if err != nil {
		return Result{}, err
	}
	m, _ := mapTools(p, main, "Claude Code", Runtime, Options{})
	for _, n := range m.Names {
		allowed[n] = true
	}
	s, err := claudeSettings(p, main.ID, allowed, o)
	if err != nil {
		return Result{}, err
	}
	r.Files = append(r.Files, File{Path: "settings.json", Data: s})
	return r, nil
}

// ErrMainNeeded is the claude-code export of several agents without
// Options.Main.
var ErrMainNeeded = errors.New("settings.json's hook judges Claude Code's main thread as one agent: name it (the main agent) when exporting several")

// mainAgent is the agent the main thread is judged as.
func mainAgent(p *compiler.Program, agents []Agent, o Options) (*compiler.Agent, error) {
	id := o.Main
	if id == "" {
		if len(agents) > 1 {
			return nil, ErrMainNeeded
		}
		return agents[0].Agent, nil
	}
	for _, a := range p.Agents {
		if a.ID == id {
			return a, nil
		}
	}
	return nil, fmt.Errorf("main agent %q is not an agent of the repository", id)
}

// claudeSettings is settings.json: permissions.deny for every Claude Code
// tool no exported agent (nor the main thread's) may call, so that Claude
// Code itself refuses them even where a subagent's front matter or a hook
// is not honoured, and the hooks that run charter eval on every call.
func claudeSettings(p *compiler.Program, main string, allowed map[string]bool, o Options) ([]byte, error) {
	var deny []string
	if rt := p.Config.Runtimes[Runtime]; rt != nil {
		for n := range rt.Tools {
			if !allowed[n] {
				deny = append(deny, n)
			}
		}
	}
	slices.Sort(deny)
	if deny == nil {
		deny = []string{}
	}
	cmd := "charter eval --protocol claude-code --agent " + main
	if o.Bundle != "" {
		cmd += " --bundle " + shellQuote(o.Bundle)
	}
	type hook struct {
		Type      string `json:"type"`
		Command   string `json:"command"`
		OnFailure string `json:"onFailure,omitempty"`
	}
	type matcher struct {
		Matcher string `json:"matcher,omitempty"`
		Hooks   []hook `json:"hooks"`
	}
	settings := struct {
		Permissions struct {
			Deny []string `json:"deny"`
		} `json:"permissions"`
		Hooks map[string][]matcher `json:"hooks"`
	}{}
	settings.Permissions.Deny = deny
	settings.Hooks = map[string][]matcher{
		"PreToolUse":  {{Matcher: "*", Hooks: []hook{{Type: "command", Command: cmd, OnFailure: "block"}}}},
		"PostToolUse": {{Matcher: "*", Hooks: []hook{{Type: "command", Command: cmd}}}},
		"SessionEnd":  {{Hooks: []hook{{Type: "command", Command: cmd}}}},
	}
	return pretty(settings)
}

// pretty is indented JSON with a final newline and no HTML escaping.
func pretty(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// shellQuote quotes s for sh when it holds anything but safe characters.
func shellQuote(s string) string {
	safe := s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@%+,", r))
	}) < 0
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
