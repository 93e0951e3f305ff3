package main

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/charter-dev/charter/compiler"
	"github.com/charter-dev/charter/internal/artifact/bundlefile"
	"github.com/charter-dev/charter/internal/config/revision"
	"github.com/charter-dev/charter/internal/enforce/hook"
	"github.com/charter-dev/charter/internal/enforce/judge"
	"github.com/charter-dev/charter/internal/enforce/judge/fromprogram"
	"github.com/charter-dev/charter/rules"
	"github.com/charter-dev/charter/rules/claudecode"
)

type evalOptions struct {
	bundle    string
	verifyKey string
	agent     string
	profile   string
	session   string
	phase     string
	protocol  string
	stateDir  string
	onError   string
}

func newEvalCmd(g *globals) *cobra.Command {
	o := &evalOptions{}
	cmd := &cobra.Command{
		Use:   "eval (--agent ID | --profile NAME) [--bundle DIR] [--session FILE.jsonl] [--phase pre|post] [--protocol claude-code] [--on-error deny|allow]",
		Short: "Judge one tool call against an agent's rule profile",
		Long: `eval reads one tool call as JSON on stdin ({"tool": ..., "args": {...},
"result": ...}) and prints the verdict as JSON: the decision (allow, ask or
block), the rules that fired with their action and message, and the rules
whose expression failed on this call. --session names a JSON Lines file of
the earlier calls, one call per line; a corrupt line is reported with its
number and the rest is read. --phase pre judges a call before it runs
(block, ask and warn rules), post after it ran (remind rules).

With --agent, a call to a tool the agent may not call is blocked before
any rule runs, whatever the profile says (rule "permissions"), naming the
declaration that took the tool away and its file:line. A delegation call
(Claude Code's Agent) that starts a bundle agent outside the agent's
authority.can_delegate_to is blocked too (rule "can_delegate_to"). A runtime's name
for a tool (Claude Code's Edit, Bash, mcp__server__tool) is mapped to
charter's tool through the runtimes table; a name no table maps is
blocked. docs/rules.md section 0 has the details.

eval fails closed: when it cannot reach a verdict (no bundle, a bundle
whose files do not match manifest.json, an unknown agent, input that does
not decode, a session it cannot read, a rule that could block and errors)
the verdict is block, with the reason, and eval exits 2. --on-error allow
is the operator's choice to let such a call through instead, with the
reason in the verdict's notes.

--bundle DIR reads a built bundle, which is what a runtime deploys, checked
against its manifest.json, and evaluates no CUE; without it charter builds
the repository at -C first. --verify-key FILE also requires manifest.json
to carry a signature (manifest.jws) by that public key, so every file
eval reads is one the key vouched for; anything less is a failure.

--protocol claude-code speaks Claude Code's hook protocol instead: the
PreToolUse or PostToolUse input on stdin, a deny with the rule's message for
block, permissionDecision ask for ask (claude -p, with no one to ask,
denies it), the warning as context for warn, the reminder as context after
the call for remind. A call from a subagent is judged as the agent its
agent_type names when the bundle has it and --agent may start it (its
authority.can_delegate_to, directly or through agents it may start; else
the call is denied, whatever --on-error says), or as --agent when the
bundle does not have it (which the user is told), in a session of its own. Each session's calls are kept in
--state-dir (default: charter/sessions under the user's cache directory),
keyed by session_id, safe against two hooks at once; a SessionEnd input
deletes the session's state, and that of sessions idle for seven days.
With --protocol claude-code every failure, a command line charter cannot
read among them, is answered on stdout (a deny, or with --on-error allow a
message that lets the call go on) and exits 0: Claude Code lets a call
through when a hook exits 1. See docs/rules.md for the settings.json
snippet.

charter-hook, installed beside charter (go install ./cmd/...), is this
command on a bundle as a program of its own: charter-hook --bundle DIR
takes these flags (but -C, --session and --phase) and answers every call
byte for byte as charter eval --protocol claude-code --bundle DIR does,
in about half the time, since it links no CUE, Git or registry
client. Claude Code starts the hook for every tool call; docs/rules.md
says how to use it.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runEval(g, o, os.Stdin)
		},
	}
	cmd.Flags().StringVar(&o.bundle, "bundle", "", "read the profile from this built bundle instead of building the repository")
	cmd.Flags().StringVar(&o.verifyKey, "verify-key", "", "with --bundle: require manifest.json signed by this PEM public key")
	cmd.Flags().StringVar(&o.agent, "agent", "", "judge with this agent's profile")
	cmd.Flags().StringVar(&o.profile, "profile", "", "judge with this profile")
	cmd.Flags().StringVar(&o.session, "session", "", "JSON Lines file of the session's earlier calls")
	choiceVar(cmd, &o.phase, "phase", "pre", "when the call is judged: before it runs, or after, with its result", "pre", "post")
	choiceVar(cmd, &o.protocol, "protocol", "", "speak a runtime's hook protocol", "claude-code")
	cmd.Flags().StringVar(&o.stateDir, "state-dir", "", "where --protocol claude-code keeps sessions")
	choiceVar(cmd, &o.onError, "on-error", "deny", "what a call gets that charter cannot judge", "deny", "allow")
	return cmd
}

func (o *evalOptions) policy() rules.OnError {
	if o.onError == "allow" {
		return rules.OnErrorAllow
	}
	return rules.OnErrorDeny
}

func runEval(g *globals, o *evalOptions, stdin io.Reader) error {
	if err := o.hookOptions().Check(); err != nil {
		return usage("%v", err)
	}
	if o.verifyKey != "" && o.bundle == "" {
		return usage("--verify-key checks a built bundle's signature: give --bundle DIR too")
	}
	if o.protocol == "claude-code" {
		return runHook(g, o, stdin)
	}
	e, err := o.engines(g)
	if err == nil {
		var eng *rules.Engine
		if eng, _, err = e(""); err == nil {
			err = evalCall(g, o, eng, stdin)
		}
	}
	if err == nil {
		return nil
	}
	// Fail closed: a verdict says the call may not run, and why.
	why := strings.TrimSpace(strings.SplitN(errorText(err), "\n", 2)[0])
	v := rules.Verdict{Phase: rules.Phase(o.phase), Decision: rules.Blocked,
		Fired: []rules.Firing{{Rule: rules.FailClosedRule, Action: rules.Block, Message: "charter could not judge this call, so it is denied: " + why}}}
	if o.policy() == rules.OnErrorAllow {
		v = rules.Verdict{Phase: rules.Phase(o.phase), Decision: rules.Allowed,
			Notes: []string{"charter could not judge this call (" + why + "); --on-error allow lets it through"}}
		if werr := writeJSON(g.stdout, v); werr != nil {
			return werr
		}
		textf(g.stderr, "charter: %s\n", why)
		return nil
	}
	if werr := writeJSON(g.stdout, v); werr != nil {
		return werr
	}
	return err
}

// hookOptions are the options of the hook on a bundle (internal/enforce/hook).
func (o *evalOptions) hookOptions() hook.Options {
	return hook.Options{Bundle: o.bundle, VerifyKey: o.verifyKey, Agent: o.agent, Profile: o.profile, StateDir: o.stateDir, OnError: o.policy()}
}

// errorText is what an error says, or, for one whose message was printed
// already (a revision that does not validate), that.
func errorText(err error) string {
	var ee *exitErr
	if errors.As(err, &ee) && ee.err == nil {
		return "the configuration does not validate (the diagnostics above say why); run charter validate"
	}
	return err.Error()
}

// runHook answers one Claude Code hook call: on a bundle, as charter-hook
// does (the same package); on the repository at -C, built first. Every
// failure past this point is answered on stdout by the handler; run
// answers the failures before it (hookFailure).
func runHook(g *globals, o *evalOptions, stdin io.Reader) error {
	if o.bundle != "" {
		return hook.Run(o.hookOptions(), stdin, g.stdout)
	}
	return hook.Handler(o.hookOptions(), func() (*judge.Judge, error) {
		prog, err := evalProgram(g)
		if err != nil {
			return nil, errors.New(errorText(err))
		}
		return judge.New(hintedLoader{fromprogram.Loader{P: prog}}, o.policy()), nil
	}).Handle(stdin, g.stdout)
}

// engineSource finds the engine that judges an agent's calls: for
// agentType, a subagent's name ("" for the caller's --agent), the engine,
// and a note when the call is judged as another agent than it names.
type engineSource func(agentType string) (*rules.Engine, string, error)

// engines returns where eval's engines come from: the bundle, or the
// repository built once, through the one judge eval, the hook and serve
// share.
func (o *evalOptions) engines(g *globals) (engineSource, error) {
	var loader judge.Loader
	if o.bundle != "" {
		r, err := hook.OpenBundle(o.bundle, o.verifyKey)
		var be *hook.BundleError
		if errors.As(err, &be) {
			return nil, withHint(be.Err, be.Hint)
		}
		if err != nil {
			return nil, err
		}
		loader = hintedLoader{judge.Bundle{R: r}}
	} else {
		prog, err := evalProgram(g)
		if err != nil {
			return nil, err
		}
		loader = hintedLoader{fromprogram.Loader{P: prog}}
	}
	j := judge.New(loader, o.policy())
	return j.Source(o.agent, o.profile, o.protocol), nil
}

// hintedLoader adds the command line's hints to a loader's errors.
type hintedLoader struct{ judge.Loader }

func (l hintedLoader) Load(agent, profile string) (rules.Profile, []byte, error) {
	p, b, err := l.Loader.Load(agent, profile)
	var nf *bundlefile.NotInBundleError
	var ue *fromprogram.UnknownError
	switch {
	case errors.As(err, &nf) && nf.Kind == "agent":
		err = withHint(err, "build the bundle with charter build, or check --bundle and --agent")
	case errors.As(err, &ue):
		err = unknownName(ue.Kind, ue.Name, ue.Known)
	}
	return p, b, err
}

// evalProgram builds the repository at -C.
func evalProgram(g *globals) (*compiler.Program, error) {
	rev, err := evaluate(g, revision.Source{})
	if err != nil {
		return nil, err
	}
	return program(g, rev, false)
}

// evalCall judges the one call on stdin, after the session's earlier
// calls, and prints the verdict as JSON.
func evalCall(g *globals, o *evalOptions, e *rules.Engine, stdin io.Reader) error {
	var call rules.Call
	dec := json.NewDecoder(io.LimitReader(stdin, claudecode.MaxInputBytes))
	if err := dec.Decode(&call); err != nil {
		return usage("the call on stdin is not JSON charter can read: %v; want {\"tool\": \"Edit\", \"args\": {...}}", err)
	}
	if err := dec.Decode(&json.RawMessage{}); err != io.EOF {
		// Which call would run? Judge none.
		return usage("stdin holds more than one JSON value, or something after the call; give eval one call: {\"tool\": \"Edit\", \"args\": {...}}")
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
	return writeJSON(g.stdout, e.Evaluate(rules.Phase(o.phase), call, session))
}

// claudeCodeHook reports whether a command line runs eval as the Claude
// Code hook, read from the words themselves: a flag error stops parsing
// before --protocol is set.
func claudeCodeHook(args []string) bool {
	return slices.Contains(args, "eval") && hook.FlagWord(args, "--protocol") == "claude-code"
}

// hookFailure answers, on stdout, a Claude Code hook call that failed
// before its handler could: a command line charter cannot read, a panic.
// The words decide between deny and --on-error allow.
func hookFailure(stdout io.Writer, args []string, err error) {
	_ = hook.Failure(stdout, hook.OnErrorOf(args), err)
}
