package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/internal/artifact/bundle"
	"github.com/charter-dev/charter/internal/config/model"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/rules"
	"github.com/charter-dev/charter/rules/claudecode"
)

type evalOptions struct {
	bundle   string
	agent    string
	profile  string
	session  string
	phase    string
	protocol string
	stateDir string
}

func newEvalCmd(g *globals) *cobra.Command {
	o := &evalOptions{}
	cmd := &cobra.Command{
		Use:   "eval (--agent ID | --profile NAME) [--bundle DIR] [--session FILE.jsonl] [--phase pre|post] [--protocol claude-code]",
		Short: "Judge one tool call against an agent's rule profile",
		Long: `eval reads one tool call as JSON on stdin ({"tool": ..., "args": {...},
"result": ...}) and prints the verdict as JSON: the decision (allow or
block), the rules that fired with their action and message, and the rules
whose expression failed on this call. --session names a JSON Lines file of
the earlier calls, one call per line; a corrupt line is reported with its
number and the rest is read. --phase pre judges a call before it runs
(block and warn rules), post after it ran (remind rules).

With --agent, a call to a tool the agent may not call is blocked before
any rule runs, whatever the profile says (rule "permissions"), naming the
declaration that took the tool away and its file:line. A runtime's name
for a tool (Claude Code's Edit, Bash, mcp__server__tool) is mapped to
charter's tool through the runtimes table; a name no table maps is blocked
when the agent has an allow-list, and otherwise left to the profile, which
the verdict's notes say. docs/rules.md section 0 has the details.

--bundle DIR reads a built bundle, which is what a runtime deploys, and
evaluates no CUE; without it charter builds the repository at -C first.

--protocol claude-code speaks Claude Code's hook protocol instead: the
PreToolUse or PostToolUse input on stdin, a deny with the rule's message for
block, the call let through with the warning as context for warn, the
reminder as context after the call for remind. Each session's calls are
kept in --state-dir (default: charter/sessions under the user's cache
directory), keyed by session_id, safe against two hooks at once; a
SessionEnd input deletes the session's state, and that of sessions idle
for seven days. With --protocol claude-code every failure (bad input, a
missing bundle) exits 1, so that Claude Code shows it and lets the call
proceed: exit 2 would block the call. See docs/rules.md for the
settings.json snippet.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			err := runEval(g, o, os.Stdin)
			if o.protocol == "claude-code" {
				return hookError(err)
			}
			return err
		},
	}
	cmd.Flags().StringVar(&o.bundle, "bundle", "", "read the profile from this built bundle instead of building the repository")
	cmd.Flags().StringVar(&o.agent, "agent", "", "judge with this agent's profile")
	cmd.Flags().StringVar(&o.profile, "profile", "", "judge with this profile")
	cmd.Flags().StringVar(&o.session, "session", "", "JSON Lines file of the session's earlier calls")
	cmd.Flags().StringVar(&o.phase, "phase", "pre", "pre (before the call runs) or post (after, with its result)")
	cmd.Flags().StringVar(&o.protocol, "protocol", "", "speak a runtime's hook protocol: claude-code")
	cmd.Flags().StringVar(&o.stateDir, "state-dir", "", "where --protocol claude-code keeps sessions")
	return cmd
}

func runEval(g *globals, o *evalOptions, stdin io.Reader) error {
	if (o.agent == "") == (o.profile == "") {
		return usage("give exactly one of --agent ID and --profile NAME")
	}
	if o.protocol != "" && o.protocol != "claude-code" {
		return unknownName("protocol", o.protocol, []string{"claude-code"})
	}
	phase := rules.Phase(o.phase)
	if phase != rules.Pre && phase != rules.Post {
		return usage("--phase %q: want pre or post", o.phase)
	}
	p, gate, err := evalProfile(g, o)
	if err != nil {
		return err
	}
	e, err := rules.Compile(p)
	if err != nil {
		return err
	}
	e.SetGate(gate)
	if o.protocol == "claude-code" {
		dir, cacheErr := o.stateDir, error(nil)
		if dir == "" {
			if dir, err = claudecode.DefaultStateDir(); err != nil {
				// No session store: the gate still denies (Respond), and
				// anything else fails with this.
				cacheErr = fmt.Errorf("no user cache directory to keep sessions in (%v): give --state-dir", err)
			}
		}
		if err := claudecode.HandleStore(stdin, g.stdout, e, &rules.Store{Dir: dir, Unusable: cacheErr}); err != nil {
			return err
		}
		return nil
	}
	return evalCall(g, o, e, phase, stdin)
}

// evalCall judges the one call on stdin, after the session's earlier
// calls, and prints the verdict as JSON.
func evalCall(g *globals, o *evalOptions, e *rules.Engine, phase rules.Phase, stdin io.Reader) error {
	var call rules.Call
	dec := json.NewDecoder(io.LimitReader(stdin, claudecode.MaxInputBytes))
	if err := dec.Decode(&call); err != nil {
		return usage("the call on stdin is not JSON: %v; want {\"tool\": \"Edit\", \"args\": {...}}", err)
	}
	if call.Tool == "" {
		return usage("the call on stdin has no tool name; want {\"tool\": \"Edit\", \"args\": {...}}")
	}
	session := &rules.Session{}
	if o.session != "" {
		s, err := rules.ReadSessionFile(o.session)
		var ce *rules.CorruptLinesError
		switch {
		case errors.As(err, &ce):
			textf(g.stderr, "charter: %s: %v\n", o.session, err)
		case err != nil:
			return err
		}
		session = s
	}
	return writeJSON(g.stdout, e.Evaluate(phase, call, session))
}

// hookError gives every failure of the Claude Code hook exit code 1. Claude
// Code blocks the tool call when a hook exits 2, and lets it proceed, showing
// the message, on any other failure: charter's own trouble (a missing
// bundle, bad input) must not block the agent by accident. Blocking is what
// a rule's deny says, on exit 0.
func hookError(err error) error {
	if err == nil {
		return nil
	}
	ee := asExit(err)
	if ee.code == exitError {
		ee.code = exitFindings
	}
	return ee
}

// claudeCodeHook reports whether a command line runs eval as the Claude
// Code hook, read from the words themselves: a flag error stops parsing
// before --protocol is set.
func claudeCodeHook(args []string) bool {
	if !slices.Contains(args, "eval") {
		return false
	}
	for i, a := range args {
		if a == "--protocol=claude-code" || a == "--protocol" && i+1 < len(args) && args[i+1] == "claude-code" {
			return true
		}
	}
	return false
}

// evalProfile finds the profile to judge with, from a bundle or by
// building the repository, and with --agent what the agent may call (the
// gate every call passes before the profile's rules). An agent without a
// profile is judged by its gate alone.
func evalProfile(g *globals, o *evalOptions) (rules.Profile, *rules.Gate, error) {
	p, b, err := evalSource(g, o)
	if err != nil || b == nil {
		return p, nil, err
	}
	gate, err := bundle.ReadGate(b, o.protocol)
	if err != nil {
		return p, nil, fmt.Errorf("agent %s: %v", o.agent, err)
	}
	return p, gate, nil
}

// evalSource returns the profile and, with --agent, the agent's agent.json.
func evalSource(g *globals, o *evalOptions) (rules.Profile, []byte, error) {
	if o.bundle != "" {
		p, agentJSON, err := bundle.ReadProfile(o.bundle, o.agent, o.profile)
		var nf *bundle.NotInBundleError
		if errors.As(err, &nf) && nf.Kind == "agent" {
			return rules.Profile{}, nil, withHint(err, "build the bundle with charter build, or check --bundle and --agent")
		}
		if err != nil {
			return rules.Profile{}, nil, err
		}
		return p, agentJSON, nil
	}
	rev, err := evaluate(g, revision.Source{})
	if err != nil {
		return rules.Profile{}, nil, err
	}
	prog, err := program(g, rev, false)
	if err != nil {
		return rules.Profile{}, nil, err
	}
	name := o.profile
	if o.agent != "" {
		a, err := agent(rev, o.agent)
		if err != nil {
			return rules.Profile{}, nil, err
		}
		p, b, err := bundle.AgentProfile(prog, a)
		if err != nil {
			return rules.Profile{}, nil, err
		}
		return p, b, nil
	}
	p, ok := prog.Profiles[name]
	if !ok {
		return rules.Profile{}, nil, unknownName("profile", name, model.Sorted(prog.Profiles))
	}
	return *p, nil, nil
}
