package export

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/enforce/shell"
	"github.com/charter-dev/charter/rules"
)

// scalar and mapping build YAML nodes in a fixed order (a map's keys are
// sorted by the encoder; OpenCode's permission map is ordered).
func scalar(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: v} }

func quoted(v string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Value: v, Style: yaml.DoubleQuotedStyle}
}

func number(n int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: fmt.Sprint(n)}
}

func mappingNode(kv ...any) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i+1 < len(kv); i += 2 {
		m.Content = append(m.Content, scalar(kv[i].(string)), kv[i+1].(*yaml.Node))
	}
	return m
}

// openCodeTask is OpenCode's tool that starts a subagent: its permission
// takes the agents' names as patterns.
const openCodeTask = "task"

// openCodeBuiltins are the agents OpenCode has of its own (`opencode
// agent list`, 1.18.33). A file of the same name merges into one of them;
// without that file, task starts OpenCode's own agent, with every tool.
var openCodeBuiltins = map[string]bool{"build": true, "compaction": true, "explore": true, "general": true, "plan": true, "summary": true, "title": true}

// openCode writes agents/NAME.md per agent: an OpenCode subagent whose
// permission map denies every tool ("*", first: OpenCode's last matching
// rule wins) and then allows the agent's.
func openCode(p *compiler.Program, agents []Agent, o Options) (Result, error) {
	const target, table = "OpenCode", "opencode"
	ns, err := names(agents, target, func(id string) (string, error) { return id, nil })
	if err != nil {
		return Result{}, err
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
		r.Notes = append(r.Notes, timeoutNote(a.Agent, "OpenCode's agent file")...)
		whitelists, notes, err := shellWhitelists(p, a, &m, target, table, openCodeShell, o)
		if err != nil {
			return Result{}, err
		}
		r.Notes = append(r.Notes, notes...)
		for i := range whitelists {
			r.Notes = append(r.Notes, whitelists[i].dropRunners(a.ID, "OpenCode's bash permission would admit with any arguments")...)
		}
		perm := mappingNode("*", scalar("deny"))
		for _, n := range m.Names {
			if n == openCodeTask {
				// The agents it may start, by name, and no other (not
				// OpenCode's own, whose calls no hook would judge).
				starts := mappingNode("*", scalar("deny"))
				for _, d := range a.Delegates {
					if openCodeBuiltins[d] && !slices.Contains(ns, d) {
						r.Notes = append(r.Notes, fmt.Sprintf("agent %s may start %s, which is also the name of OpenCode's own agent of every tool: without %s's file exported beside it (--all), OpenCode would start its own, so %s may not start it here", a.ID, d, d, a.ID))
						continue
					}
					starts.Content = append(starts.Content, quoted(d), scalar("allow"))
				}
				perm.Content = append(perm.Content, quoted(n), starts)
				continue
			}
			if n == openCodeShell && len(whitelists) > 0 {
				perm.Content = append(perm.Content, quoted(n), openCodeCommands(whitelists[0]))
				continue
			}
			perm.Content = append(perm.Content, quoted(n), scalar("allow"))
		}
		fm := mappingNode("description", quoted(a.Description), "mode", scalar("subagent"))
		if mdl != "" {
			fm.Content = append(fm.Content, scalar("model"), quoted(mdl))
		}
		if a.Decl.MaxTurns > 0 {
			fm.Content = append(fm.Content, scalar("steps"), number(a.Decl.MaxTurns))
		}
		fm.Content = append(fm.Content, scalar("permission"), perm)
		b, err := frontMatterFile(fm, a.Prompt)
		if err != nil {
			return Result{}, fmt.Errorf("agent %s: %v", a.ID, err)
		}
		r.Files = append(r.Files, File{Path: "agents/" + ns[i] + ".md", Data: b})
	}
	r.Notes = append(r.Notes, "OpenCode's agent files carry the tools and each whitelist of programs, not charter's rules: OpenCode's plugin hook does not say which agent calls (docs/export.md)")
	return r, nil
}

// openCodeShell is OpenCode's shell tool. Its permission takes patterns
// that OpenCode matches against each command of a line it parses
// (pipelines, lists, $(...), functions' bodies: every one must match).
const openCodeShell = "bash"

// openCodeCommands is the bash permission for a whitelist of programs:
// every command denied ("*", first: the last matching rule wins), then
// each program allowed alone and with arguments ("go", "go *").
func openCodeCommands(w whitelist) *yaml.Node {
	m := mappingNode("*", scalar("deny"))
	for _, p := range w.programs {
		m.Content = append(m.Content, quoted(p), scalar("allow"), quoted(p+" *"), scalar("allow"))
	}
	return m
}

// geminiCLI writes agents/NAME.md per agent, a Gemini CLI local subagent
// with an explicit tools list (omitted, it would get every tool), and
// policies/charter.toml once: a deny rule per agent for every Gemini CLI
// tool it may not call, and its shell's whitelist of programs.
func geminiCLI(p *compiler.Program, agents []Agent, o Options) (Result, error) {
	const target, table = "Gemini CLI", "gemini-cli"
	// Gemini CLI's names are slugs: [a-z0-9-_]+, which every charter id is.
	ns, err := names(agents, target, func(id string) (string, error) { return id, nil })
	if err != nil {
		return Result{}, err
	}
	var all []string
	if rt := p.Config.Runtimes[table]; rt != nil {
		all = uniq(keys(rt.Tools))
	}
	var r Result
	var policy strings.Builder
	policy.WriteString("# Written by charter export --to gemini-cli. Do not edit; export again.\n# Each agent's Gemini CLI tools it may not call, denied.\n")
	for i, a := range agents {
		m, err := mapTools(p, a.Agent, target, table, o)
		if err != nil {
			return Result{}, err
		}
		mdl, err := modelName(p, a.Agent, target, table)
		if err != nil {
			return Result{}, err
		}
		if a.Description == "" {
			return Result{}, fmt.Errorf("agent %s: Gemini CLI needs a description; give the agent one", a.ID)
		}
		r.Notes = append(r.Notes, m.note(a.ID, target, table)...)
		whitelists, notes, err := shellWhitelists(p, a, &m, target, table, geminiShell, o)
		if err != nil {
			return Result{}, err
		}
		r.Notes = append(r.Notes, notes...)
		tools := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, n := range m.Names {
			tools.Content = append(tools.Content, scalar(n))
		}
		fm := mappingNode("name", scalar(ns[i]), "description", quoted(a.Description), "kind", scalar("local"), "tools", tools)
		if mdl != "" {
			fm.Content = append(fm.Content, scalar("model"), quoted(mdl))
		}
		if a.Decl.MaxTurns > 0 {
			fm.Content = append(fm.Content, scalar("max_turns"), number(a.Decl.MaxTurns))
		}
		if t := a.Decl.Timeout; t > 0 {
			// Whole minutes only, rounded down: never longer.
			if mins := int(t / 60); mins > 0 {
				fm.Content = append(fm.Content, scalar("timeout_mins"), number(mins))
				if float64(mins*60) != t {
					r.Notes = append(r.Notes, fmt.Sprintf("%s: Gemini CLI counts whole minutes, so timeout (%gs) is exported as %d min", a.ID, t, mins))
				}
			} else {
				r.Notes = append(r.Notes, fmt.Sprintf("%s: Gemini CLI counts whole minutes, so timeout (%gs) is not carried", a.ID, t))
			}
		}
		b, err := frontMatterFile(fm, a.Prompt)
		if err != nil {
			return Result{}, fmt.Errorf("agent %s: %v", a.ID, err)
		}
		r.Files = append(r.Files, File{Path: "agents/" + ns[i] + ".md", Data: b})
		var deny []string
		for _, n := range all {
			if !slices.Contains(m.Names, n) {
				deny = append(deny, n)
			}
		}
		if len(deny) > 0 {
			fmt.Fprintf(&policy, "\n[[rule]]\nsubagent = %s\ntoolName = %s\ndecision = \"deny\"\npriority = 900\ndenyMessage = %s\n",
				js(ns[i]), js(deny), js("charter: "+a.ID+" may not call this tool"))
		}
		for _, w := range whitelists {
			// Below, every command the tool runs denied; above, the
			// whitelist's programs allowed (Gemini CLI's engine allows a
			// line only when each of its commands is allowed).
			// commandPrefix admits a program with any arguments.
			r.Notes = append(r.Notes, w.dropRunners(a.ID, "Gemini CLI's policy would admit unread (it matches a command's first word)")...)
			fmt.Fprintf(&policy, "\n[[rule]]\nsubagent = %s\ntoolName = %s\ndecision = \"deny\"\npriority = 899\ndenyMessage = %s\n",
				js(ns[i]), js(geminiShell), js("charter: "+a.ID+" may run only "+w.allowedText()))
			if len(w.programs) > 0 {
				fmt.Fprintf(&policy, "\n[[rule]]\nsubagent = %s\ntoolName = %s\ncommandPrefix = %s\ndecision = \"allow\"\npriority = 901\n",
					js(ns[i]), js(geminiShell), js(w.programs))
			}
		}
	}
	r.Files = append(r.Files, File{Path: "policies/charter.toml", Data: []byte(policy.String())})
	r.Notes = append(r.Notes, "Gemini CLI's agent files carry the tools, and policies/charter.toml denies the rest and holds each whitelist of programs; charter's rules are not carried: the BeforeTool hook does not say which subagent calls (docs/export.md)")
	return r, nil
}

// geminiShell is Gemini CLI's shell tool, whose policy rules take a
// command's program (commandPrefix).
const geminiShell = "run_shell_command"

// whitelist is the programs an agent's shell may run, and the parameters
// that say so.
type whitelist struct {
	programs []string
	params   []string
}

// dropRunners leaves out of w the programs that run others (env's
// command, find -exec, git's aliases): a runtime that admits a program
// with any arguments would run what they run unread, where charter's gate
// reads it. Never wider than charter: a note says which went, and why
// (how, the runtime's way of matching).
func (w *whitelist) dropRunners(agent, how string) []string {
	var runners []string
	w.programs = slices.DeleteFunc(w.programs, func(p string) bool {
		if shell.RunsOthers(p) {
			runners = append(runners, p)
			return true
		}
		return false
	})
	if len(runners) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("%s: %s %s other programs, which %s; left out of its whitelist there: charter's hook reads what they run", agent, strings.Join(runners, ", "), plural(len(runners), "runs", "run"), how)}
}

func (w whitelist) allowedText() string {
	progs := "no program"
	if len(w.programs) > 0 {
		progs = strings.Join(w.programs, ", ")
	}
	return progs + " (" + strings.Join(w.params, ", ") + ")"
}

// shellWhitelists returns the whitelist of programs (a behavior
// parameter that restricts run_bash's command, CommandToolsBehavior's
// whitelist) on the shell tool the agent gets in a runtime (its name in
// runtimes.TABLE is shellTool), which the runtime's permissions carry; two
// on one tool admit the programs both name. A value that is no plain
// program name (a space, a quote, a glob) names no program charter's gate
// admits, and none here. A tool under a limit the runtime cannot hold (of
// another kind, on another tool) is taken out of m.Names, never given
// whole: the notes say so, and with o.Strict it is an error.
func shellWhitelists(p *compiler.Program, a Agent, m *mapping, target, runtime, shellTool string, o Options) ([]whitelist, []string, error) {
	var table map[string]string
	if rt := p.Config.Runtimes[runtime]; rt != nil {
		table = rt.Tools
	}
	var w *whitelist
	var notes []string
	for _, c := range a.Constraints {
		for _, n := range runtimeNames(table, c.Tool) {
			if !slices.Contains(m.Names, n) {
				continue
			}
			if n != shellTool || c.Check != rules.CheckPrograms || c.Field != "command" {
				msg := fmt.Sprintf("%s: %s.%s limits %s, which %s cannot hold on its %s", a.ID, c.Behavior, c.Param, c.Tool, target, n)
				if o.Strict {
					return nil, nil, fmt.Errorf("%s, and strict export refuses to leave it out; export to a runtime charter's hook or serve judges (claude-code, openai-agents, adk)", msg)
				}
				notes = append(notes, msg+": "+n+" left out (never wider than the agent); charter's hook or serve holds such a limit (claude-code, openai-agents, adk)")
				m.Names = slices.DeleteFunc(m.Names, func(x string) bool { return x == n })
				continue
			}
			var progs []string
			for _, v := range c.Values {
				if v != "" && !strings.ContainsAny(v, " \t\r\n\"'\\$`;|&<>(){}[]*?!#~=") && (w == nil || slices.Contains(w.programs, v)) {
					progs = append(progs, v)
				}
			}
			slices.Sort(progs)
			progs = slices.Compact(progs)
			if w == nil {
				w = &whitelist{}
			}
			w.programs = progs
			w.params = append(w.params, c.Behavior+"."+c.Param)
		}
	}
	if w == nil || !slices.Contains(m.Names, shellTool) {
		return nil, notes, nil
	}
	return []whitelist{*w}, notes, nil
}

func keys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
