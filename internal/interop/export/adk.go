package export

import (
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/charter-dev/charter/compiler"
)

//go:embed assets/charter_guard.py
var adkGuard string

// adkConfig is an LlmAgent's Agent Config (adk-python's LlmAgentConfig),
// the fields charter fills, in the order written.
type adkConfig struct {
	AgentClass  string    `yaml:"agent_class"`
	Name        string    `yaml:"name"`
	Description string    `yaml:"description,omitempty"`
	Model       string    `yaml:"model,omitempty"`
	Instruction string    `yaml:"instruction"`
	Tools       []adkName `yaml:"tools"`
	// ADK lets an agent hand the conversation to its parent and its peers
	// (a transfer_to_agent tool it adds) unless told not to; charter does
	// not carry delegation into ADK, so an exported agent may hand off to
	// no one, whatever tree a user mounts it in.
	DisallowTransferToParent bool      `yaml:"disallow_transfer_to_parent"`
	DisallowTransferToPeers  bool      `yaml:"disallow_transfer_to_peers"`
	BeforeToolCallbacks      []adkName `yaml:"before_tool_callbacks"`
}

type adkName struct {
	Name string `yaml:"name"`
}

var pyIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// pyKeywords are Python's keywords: valid identifiers that no module path
// may hold.
var pyKeywords = strings.Fields("False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield")

// adkName is ADK's name for an agent: a Python identifier (BaseAgent's
// validate_name), not "user", and, as the agent's folder holds the guard
// module, one Python can import: an id's hyphens become underscores.
func adkAgentName(id string) (string, error) {
	n := strings.ReplaceAll(id, "-", "_")
	switch {
	case !pyIdent.MatchString(n):
		return "", fmt.Errorf("agent %s: ADK needs an agent name that is a Python identifier (a letter or _ first, then letters, digits and _), and %q starts with a digit; rename the agent", id, n)
	case n == "user":
		return "", fmt.Errorf("agent %s: ADK reserves the agent name \"user\"; rename the agent", id)
	case slices.Contains(pyKeywords, n):
		return "", fmt.Errorf("agent %s: %q is a Python keyword, which ADK cannot import the agent's guard module under; rename the agent", id, n)
	}
	return n, nil
}

// adk writes NAME/root_agent.yaml and NAME/charter_guard.py per agent: the
// folder ADK's loader (adk web, adk run) reads, its guard beside it.
func adk(p *compiler.Program, agents []Agent, o Options) (Result, error) {
	const target, table = "ADK", "adk"
	ns, err := names(agents, target, adkAgentName)
	if err != nil {
		return Result{}, err
	}
	url := o.DecideURL
	if url == "" {
		url = DefaultDecideURL
	}
	var r Result
	for i, a := range agents {
		m, err := mapTools(p, a.Agent, target, table, o)
		if err != nil {
			return Result{}, err
		}
		mdl, err := modelName(p, a.Agent, target, table)
		if err != nil {
			return Result{}, err
		}
		r.Notes = append(r.Notes, m.note(a.ID, target, table)...)
		r.Notes = append(r.Notes, timeoutNote(a.Agent, "ADK's Agent Config")...)
		if a.Decl.MaxTurns > 0 {
			r.Notes = append(r.Notes, fmt.Sprintf("%s: ADK's Agent Config has no field for a turn limit, so max_turns (%d) is not carried", a.ID, a.Decl.MaxTurns))
		}
		c := adkConfig{AgentClass: "LlmAgent", Name: ns[i], Description: a.Description, Model: mdl, Instruction: a.Prompt,
			Tools: []adkName{}, DisallowTransferToParent: true, DisallowTransferToPeers: true, BeforeToolCallbacks: []adkName{{Name: ns[i] + ".charter_guard.before_tool"}}}
		// The guard maps what ADK calls a tool back to charter's tool: a
		// dotted name's function is called by its last part.
		tools := map[string]string{}
		last := map[string]int{}
		for _, n := range m.Names {
			c.Tools = append(c.Tools, adkName{Name: n})
			last[n[strings.LastIndex(n, ".")+1:]]++
		}
		names := p.Config.Runtimes[table].Tools
		for _, n := range m.Names {
			tools[n] = names[n]
			if l := n[strings.LastIndex(n, ".")+1:]; last[l] == 1 {
				tools[l] = names[n]
			}
		}
		var node yaml.Node
		if err := node.Encode(c); err != nil {
			return Result{}, fmt.Errorf("agent %s: %v", a.ID, err)
		}
		quote(&node, "description", "instruction")
		var b strings.Builder
		fmt.Fprintf(&b, "# Agent %s, written by charter export --to adk. Do not edit; export again.\n", a.ID)
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(2)
		if err := enc.Encode(&node); err != nil {
			return Result{}, fmt.Errorf("agent %s: %v", a.ID, err)
		}
		if err := enc.Close(); err != nil {
			return Result{}, err
		}
		dir := ns[i] + "/"
		if !o.All {
			// One agent: the output folder is the agent's folder.
			dir = ""
			r.Notes = append(r.Notes, fmt.Sprintf("%s: ADK imports the guard as %s.charter_guard: the agent's folder must be named %s", a.ID, ns[i], ns[i]))
		}
		guard := strings.NewReplacer("__AGENT__", js(a.ID), "__DECIDE_URL__", js(url), "__TOOLS__", js(tools)).Replace(adkGuard)
		r.Files = append(r.Files,
			File{Path: dir + "root_agent.yaml", Data: []byte(b.String())},
			File{Path: dir + "charter_guard.py", Data: []byte(guard)})
	}
	r.Notes = append(r.Notes, "the ADK export's guard (before_tool_callbacks) asks charter serve (POST /v1/decide) and denies what needs approval: ADK's config has no approval point")
	return r, nil
}
