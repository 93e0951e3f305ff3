package export

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/charter-dev/charter/compiler"
)

// Agent is one agent to export: the compiled agent, its card's
// description and its compiled system prompt.
type Agent struct {
	*compiler.Agent
	Description string
	Prompt      string
}

// Options are the export's choices.
type Options struct {
	// Strict makes a tool the target has no name for an error, rather
	// than a note (the export is then narrower than the agent).
	Strict bool
	// Main is the agent Claude Code's main thread is judged as by the
	// hook settings.json wires (charter eval --agent); empty: the only
	// agent exported.
	Main string
	// Bundle is the built bundle the hooks and guards judge with
	// (charter eval --bundle); empty: they build the repository.
	Bundle string
	// DecideURL is the charter serve endpoint the guards ask (POST
	// /v1/decide); empty: DefaultDecideURL. The guard reads
	// CHARTER_DECIDE_URL first at run time.
	DecideURL string
	// All is set when every agent is exported: ADK writes a folder per
	// agent even when there is one; one agent alone is written into the
	// output folder itself.
	All bool
}

// DefaultDecideURL is where the guards ask charter serve when neither the
// export nor the environment says otherwise.
const DefaultDecideURL = "http://127.0.0.1:8181/v1/decide"

// File is one file an export writes, its path relative to the output
// folder in slash form.
type File struct {
	Path string
	Data []byte
}

// Result is an export: its files, the first of them the one printed when
// there is no output folder, and notes for stderr (what the export cannot
// carry, what it left out).
type Result struct {
	Files []File
	Notes []string
}

// Target is a format export writes.
type Target struct {
	// Name is the --to value.
	Name string
	// Table is the runtimes table entry the target reads names from.
	Table string
	// Carries and Cannot say what the export holds and what it cannot,
	// for --list and docs/export.md.
	Carries, Cannot string
	run             func(p *compiler.Program, agents []Agent, o Options) (Result, error)
}

// Targets are the formats this package writes, by name. (The A2A cards
// are written by internal/artifact/bundle.)
var Targets = []Target{
	{Name: "claude-code", Table: "claude-code", run: claudeCode,
		Carries: "agents/NAME.md per agent (name, description, tools, disallowedTools, model, maxTurns, the prompt) and, with --out, settings.json once: permissions.deny for every Claude Code tool no exported agent may call, and PreToolUse, PostToolUse and SessionEnd hooks that run charter eval --protocol claude-code (rules, whitelists, ask)",
		Cannot:  "timeout (no field); the hooks need charter on PATH"},
	{Name: "claude-agent-sdk", Table: "claude-code", run: agentSDK,
		Carries: "NAME.json per agent: an AgentDefinition (description, prompt, tools, disallowedTools, model, maxTurns) for options.agents",
		Cannot:  "rules: an AgentDefinition has no hooks; pass charter's hook in Options.hooks or load the claude-code export's settings.json (settingSources: ['project']); timeout"},
	{Name: "openai-agents", Table: "openai-agents", run: openAI,
		Carries: "NAME.mjs per agent: Agent options (name, instructions, model, one function tool per effective tool with its JSON Schema parameters) and, once, charter-guard.mjs: every tool asks charter serve (POST /v1/decide) before it runs (deny: a tool input guardrail's rejectContent; ask: needsApproval; no answer: deny)",
		Cannot:  "the tools' code (you pass an implementation per tool); post-call rules (remind) and timeout"},
	{Name: "adk", Table: "adk", run: adk,
		Carries: "NAME/root_agent.yaml per agent (an LlmAgent config: name, description, instruction, model, tools) and NAME/charter_guard.py, a before_tool_callbacks guard that asks charter serve (deny: the tool does not run; no answer: deny)",
		Cannot:  "ask (the guard denies what needs approval); tools ADK has no name for unless you map your Python tools in the runtimes table; max_turns and timeout"},
	{Name: "opencode", Table: "opencode", run: openCode,
		Carries: "agents/NAME.md per agent (description, mode subagent, model, steps, and a permission map that denies every tool (\"*\") and then allows each of the agent's, its task tool only for the agents it may delegate to, and its bash permission for a whitelist of programs: \"*\" denied, then each program alone and with arguments)",
		Cannot:  "rules (OpenCode's plugin hook gets no agent name, so no guard is wired); timeout; a limit other than a whitelist of programs on bash leaves its tool out, and a program that runs others is left out of the whitelist (each said on stderr)"},
	{Name: "gemini-cli", Table: "gemini-cli", run: geminiCLI,
		Carries: "agents/NAME.md per agent (name, description, tools as an explicit list, model, max_turns, timeout_mins) and, with --out, policies/charter.toml once: a deny rule per agent for every Gemini CLI tool it may not call, and its run_shell_command's whitelist of programs (a deny below an allow of each program, commandPrefix)",
		Cannot:  "rules (the BeforeTool hook gets no subagent name, so no guard is wired); a limit other than a whitelist of programs on the shell leaves its tool out, and a program that runs others is left out of the whitelist (each said on stderr)"},
}

// Lookup returns the target named name.
func Lookup(name string) (Target, bool) {
	for _, t := range Targets {
		if t.Name == name {
			return t, true
		}
	}
	return Target{}, false
}

// Names returns the targets' names.
func Names() []string {
	var out []string
	for _, t := range Targets {
		out = append(out, t.Name)
	}
	return out
}

// Export writes agents in target t's format. Files are in a fixed order
// and their bytes depend only on the program and the options.
func (t Target) Export(p *compiler.Program, agents []Agent, o Options) (Result, error) {
	if len(agents) == 0 {
		return Result{}, errors.New("no agent to export")
	}
	return t.run(p, agents, o)
}

// mapping is an agent's effective tools in a runtime's names.
type mapping struct {
	// Names are the runtime's names for the effective tools, sorted.
	Names []string
	// Denied are the runtime's names for the tools the agent is denied.
	Denied []string
	// Unmapped are the effective tools the runtime has no name for.
	Unmapped []string
}

// mapTools maps an agent's effective tools through a runtimes table
// (runtime name -> charter tool): every name of every effective tool, so
// the export is never wider than the agent. A tool with no name is left
// out, an error with o.Strict.
func mapTools(p *compiler.Program, a *compiler.Agent, target, table string, o Options) (mapping, error) {
	var names map[string]string
	if rt := p.Config.Runtimes[table]; rt != nil {
		names = rt.Tools
	}
	var m mapping
	for _, t := range a.Effective {
		n := runtimeNames(names, t.Name)
		if len(n) == 0 {
			m.Unmapped = append(m.Unmapped, t.Name)
		}
		for _, rn := range n {
			if why := notOneTool(table, rn); why != "" {
				return m, fmt.Errorf("agent %s: runtimes.%q.tools.%q names %s, and %s reads it as %s, so the export would grant more than %s; map each tool by its exact %s name (letters, digits, _, - and .)",
					a.ID, table, rn, t.Name, target, why, t.Name, target)
			}
		}
		m.Names = append(m.Names, n...)
	}
	for _, e := range a.Excluded {
		m.Denied = append(m.Denied, runtimeNames(names, e.Name)...)
	}
	// The tools tools.denied takes away that no behavior provides (a
	// denied group's, a runtime's own name): eval and the hook block them
	// (rules.ReadGate), so the export does not give them either.
	for _, d := range a.DeniedTools {
		m.Denied = append(m.Denied, runtimeNames(names, d.Name)...)
		if _, own := names[d.Name]; own {
			m.Denied = append(m.Denied, d.Name)
		}
	}
	m.Names, m.Denied = uniq(m.Names), uniq(m.Denied)
	m.Names = slices.DeleteFunc(m.Names, func(n string) bool { return slices.Contains(m.Denied, n) })
	if len(m.Unmapped) > 0 && o.Strict {
		return m, fmt.Errorf("agent %s: %s %s no %s name (runtimes.%q.tools maps none to %s), and strict export refuses to leave %s out; map %s: runtimes: %q: tools: NAME: %q",
			a.ID, strings.Join(m.Unmapped, ", "), plural(len(m.Unmapped), "has", "have"), target, table, plural(len(m.Unmapped), "it", "them"),
			plural(len(m.Unmapped), "it", "them"), plural(len(m.Unmapped), "it", "them"), table, m.Unmapped[0])
	}
	return m, nil
}

// notOneTool says how a runtime reads a name of its runtimes table that
// is not one exact tool name ("" when it is one): a list (Claude Code
// splits a tools line at commas), a pattern (OpenCode's permission keys
// are wildcards; "*" is every tool to Claude Code and Gemini CLI, and
// mcp_SERVER_* every tool of a server), or, to Claude Code, mcp__SERVER:
// every tool of that MCP server. Exact names are letters, digits, _, -
// and . (an MCP tool's, a Python module path's).
func notOneTool(table, name string) string {
	if name == "" || strings.IndexFunc(name, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.')
	}) >= 0 {
		return "a pattern or a list of tools, not one tool"
	}
	if table == Runtime {
		if server, ok := strings.CutPrefix(name, "mcp__"); ok && !strings.Contains(strings.Trim(server, "_"), "__") {
			return "every tool of the MCP server " + strings.Trim(server, "_")
		}
	}
	return ""
}

// unmappedNote says which tools an export left out.
func (m mapping) note(id, target, table string) []string {
	if len(m.Unmapped) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("%s: %s %s no %s name, so the export leaves %s out (narrower than the agent); map %s under runtimes.%q.tools, or pass --strict to make this an error",
		id, strings.Join(m.Unmapped, ", "), plural(len(m.Unmapped), "has", "have"), target, plural(len(m.Unmapped), "it", "them"), plural(len(m.Unmapped), "it", "them"), table)}
}

// modelName returns the runtime's name for the agent's model through the
// runtimes table's models, "" when the agent declares none. A model the
// table does not name is an error: export does not guess.
func modelName(p *compiler.Program, a *compiler.Agent, target, table string) (string, error) {
	if a.Decl.Model == nil || a.Decl.Model.ModelID == "" {
		return "", nil
	}
	id := a.Decl.Model.ModelID
	if rt := p.Config.Runtimes[table]; rt != nil {
		if n, ok := rt.Models[id]; ok {
			return n, nil
		}
	}
	return "", fmt.Errorf("agent %s: model %q is not in runtimes.%q.models, which gives %s's name for each model, and export does not guess one; add it: runtimes: %q: models: %q: \"NAME\"",
		a.ID, id, table, target, table, id)
}

// names maps each agent's id to its name in the target and refuses two
// agents that would get one name.
func names(agents []Agent, target string, name func(id string) (string, error)) ([]string, error) {
	out := make([]string, len(agents))
	seen := map[string]string{}
	for i, a := range agents {
		n, err := name(a.ID)
		if err != nil {
			return nil, err
		}
		if other, dup := seen[n]; dup {
			return nil, fmt.Errorf("agents %s and %s would both be %q in %s; rename one", other, a.ID, n, target)
		}
		seen[n] = a.ID
		out[i] = n
	}
	return out, nil
}

// runtimeNames returns a runtime's names for a charter tool, sorted.
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

// notCarried notes the run limits a target has no field for.
func timeoutNote(a *compiler.Agent, target string) []string {
	if a.Decl.Timeout > 0 {
		return []string{fmt.Sprintf("%s: %s has no field for a time limit, so timeout (%gs) is not carried; the runtime that starts the agent enforces it", a.ID, target, a.Decl.Timeout)}
	}
	return nil
}
