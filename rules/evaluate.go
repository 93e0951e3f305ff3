package rules

import (
	"encoding/json"
	"fmt"
	"strings"

	"cel.dev/cel-go/cel"
	celast "cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
)

// Decision is the verdict on a call: whether it may run.
type Decision string

// The three decisions.
const (
	// Allowed: no rule with action block or ask fired.
	Allowed Decision = "allow"
	// Blocked: a rule with action block fired, or the engine could not
	// judge the call (FailClosedRule); the call must not run.
	Blocked Decision = "block"
	// Asked: a rule with action ask fired and none with action block; the
	// call runs only if the user approves it.
	Asked Decision = "ask"
)

// FailClosedRule is the rule id of the firing that denies a call the
// engine could not judge: arguments past its limits, a rule that could
// block or ask and failed to evaluate, an unknown phase.
const FailClosedRule = "fail_closed"

// OnError says what a call the engine cannot judge gets.
type OnError int

const (
	// OnErrorDeny blocks the call (FailClosedRule); the default.
	OnErrorDeny OnError = iota
	// OnErrorAllow lets the call go on to the rules that could be
	// evaluated: arguments past the limits are judged on the part within
	// them, and a rule that errors does not fire. The operator's explicit
	// choice; the verdict's errors and notes still say what happened.
	OnErrorAllow
)

// SetOnError sets what a call the engine cannot judge gets (OnErrorDeny
// unless set). Call it before the engine is used.
func (e *Engine) SetOnError(o OnError) { e.onError = o }

// Verdict is the engine's answer for one call in one phase.
//
// In JSON: {"phase":"pre","decision":"block","fired":[{"rule":...,
// "action":...,"message":...}],"errors":[{"rule":...,"error":...}]}; fired
// and errors are always arrays, possibly empty.
type Verdict struct {
	// Phase is the phase the verdict is for.
	Phase Phase `json:"phase"`
	// Decision is block when a rule with action block fired or the call
	// could not be judged, else ask when a rule with action ask fired,
	// else allow.
	Decision Decision `json:"decision"`
	// Fired lists the rules that fired, in rule id order.
	Fired []Firing `json:"fired"`
	// Errors lists the rules whose condition could not be evaluated on this
	// call, in rule id order. Such a rule did not fire, and did not pass
	// silently either: the runtime should show these.
	Errors []RuleError `json:"errors"`
	// Notes say what the runtime should know about the judgement, such as
	// a tool name the agent's gate could not place.
	Notes []string `json:"notes,omitempty"`
}

// Firing is one rule that fired.
type Firing struct {
	// Rule is the rule's id.
	Rule string `json:"rule"`
	// Action is the rule's action.
	Action Action `json:"action"`
	// Message is what to tell the model: the rule's message, or its text
	// when the message is empty.
	Message string `json:"message"`
}

// RuleError is one rule whose condition failed to evaluate on a call, such as
// a CEL expression reading a missing argument.
type RuleError struct {
	// Rule is the rule's id; empty for a problem with the evaluation itself
	// (an unknown phase).
	Rule string `json:"rule"`
	// Error says what went wrong.
	Error string `json:"error"`
}

// MarshalJSON writes fired and errors as arrays even when they are nil.
func (v Verdict) MarshalJSON() ([]byte, error) {
	type plain Verdict
	p := plain(v)
	if p.Fired == nil {
		p.Fired = []Firing{}
	}
	if p.Errors == nil {
		p.Errors = []RuleError{}
	}
	return json.Marshal(p)
}

// Messages returns the messages of the fired rules with the given action, in
// rule order.
func (v Verdict) Messages(a Action) []string {
	var out []string
	for _, f := range v.Fired {
		if f.Action == a {
			out = append(out, f.Message)
		}
	}
	return out
}

// Evaluate judges one call in one phase against the rules and the session
// so far (the calls recorded before this one; nil is an empty session).
//
// In phase Pre (call.Result nil), rules whose action is block, ask or warn
// apply; in phase Post (call.Result set), rules whose action is remind
// apply. Every rule that applies to the call's tool, is enabled and not
// cooling down is evaluated, in id order, whatever fired before it; the
// verdict is block when any block rule fired, else ask when an ask rule
// did. Each block, warn and remind rule that fires is marked in the
// session for its cooldown; an ask rule is marked when the call it asked
// about is recorded (the user approved it). The call itself is not
// recorded: the runtime calls s.Record(call) after phase Post, and never
// for a call that did not run.
//
// The engine fails closed (unless SetOnError says otherwise): a call in
// phase Pre whose arguments go past the limits (MaxStringBytes, MaxDepth,
// MaxNodes) is blocked without running any rule, and so is a call on which
// a block or ask rule failed to evaluate (a CEL error, the cost limit);
// the firing is FailClosedRule's, with the reason. A failed warn or remind
// rule is reported in Verdict.Errors and decides nothing.
func (e *Engine) Evaluate(phase Phase, call Call, s *Session) Verdict {
	v := Verdict{Phase: phase, Decision: Allowed}
	if phase != Pre && phase != Post {
		msg := fmt.Sprintf("unknown phase %q; use %q before the call or %q after it", phase, Pre, Post)
		v.Errors = append(v.Errors, RuleError{Error: msg})
		if e.onError == OnErrorDeny {
			v.deny("charter cannot judge the call: " + msg)
		}
		return v
	}
	if s == nil {
		s = &Session{}
	}
	var args map[string]any
	var over string
	if phase == Pre {
		args, over = boundArgsOver(call.Args, MaxStringBytes)
		if len(call.Tool) > MaxHistoryStringBytes && over == "" {
			over = fmt.Sprintf("a tool name of %d bytes, more than the %d charter judges", len(call.Tool), MaxHistoryStringBytes)
		}
		if over != "" {
			if e.onError == OnErrorDeny {
				v.deny(fmt.Sprintf("the call holds more than charter judges (%s), so it is denied; a call is judged whole or not at all", over))
				return v
			}
			v.Notes = append(v.Notes, fmt.Sprintf("charter: the call holds more than charter judges (%s); it was judged on the part within the limits", over))
		}
	} else {
		args = boundArgs(call.Args, MaxStringBytes)
	}
	tool := cutString(call.Tool, MaxHistoryStringBytes)
	ev := &evaluation{e: e, s: s, tool: tool, args: args, rawResult: call.Result, cmds: e.commandCache(tool, args)}
	if e.gate != nil && phase == Pre {
		// What the agent may call comes first: no rule runs on a call
		// it may not make.
		f, note, ok := e.gate.check(tool, args, &ev.cmds)
		if !ok {
			v.Decision = Blocked
			v.Fired = append(v.Fired, f)
			return v
		}
		if note != "" {
			v.Notes = append(v.Notes, note)
		}
	}
	if phase == Pre {
		// Whatever the profile says: a rule cannot allow what would let
		// the agent change its own rules.
		if f, blocked := e.protect(ev); blocked {
			v.Decision = Blocked
			v.Fired = append(v.Fired, f)
			return v
		}
		if over != "" {
			if f, blocked := e.protectCut(ev, call.Args); blocked {
				v.Decision = Blocked
				v.Fired = append(v.Fired, f)
				return v
			}
		}
	}
	v = e.runRules(ev, v, phase, call, s)
	if phase == Pre && v.Decision != Blocked {
		// A command charter cannot read, that no rule blocked: the
		// protection cannot see what it changes.
		if f, blocked := e.protectUnreadable(ev); blocked {
			v.Decision = Blocked
			v.Fired = append([]Firing{f}, v.Fired...)
		}
	}
	return v
}

// runRules runs the profile's rules for the call's tool and phase on ev,
// adding what they say to v.
func (e *Engine) runRules(ev *evaluation, v Verdict, phase Phase, call Call, s *Session) Verdict {
	ph := phaseIndex(phase)
	list := e.rulesFor(ev.tool, ph)
	if len(list) == 0 {
		return v
	}
	index := s.Len()
	var failed []string
	asked := false
	for _, r := range list {
		if r.cooldown > 0 {
			if last, ok := s.LastFired(r.id); ok && index > last && index-last <= r.cooldown {
				continue
			}
		}
		if r.cond != nil {
			ok, err := r.cond.holds(ev)
			if err != nil {
				v.Errors = append(v.Errors, RuleError{Rule: r.id, Error: err.Error()})
				if r.action == Block || r.action == Ask {
					failed = append(failed, fmt.Sprintf("rule %s could not be evaluated on this call (%v)", r.id, err))
				}
				continue
			}
			if !ok {
				continue
			}
		}
		v.Fired = append(v.Fired, Firing{Rule: r.id, Action: r.action, Message: r.message})
		switch r.action {
		case Block:
			v.Decision = Blocked
		case Ask:
			asked = true
			// Marked when the call runs: a declined call must be asked
			// about again, whatever ran in between.
			s.ask(call, ev.fingerprint(), r.id)
			continue
		}
		s.MarkFired(r.id, index)
	}
	if len(failed) > 0 && e.onError == OnErrorDeny {
		v.deny(strings.Join(failed, "; ") + ", and a rule that could block or ask and cannot decide denies the call")
	}
	if asked && v.Decision == Allowed {
		v.Decision = Asked
	}
	return v
}

// deny blocks the call with a FailClosedRule firing, put first.
func (v *Verdict) deny(msg string) {
	v.Decision = Blocked
	v.Fired = append([]Firing{{Rule: FailClosedRule, Action: Block, Message: msg}}, v.Fired...)
}

// evaluation holds what the rules of one Evaluate share, each part made on
// first use.
type evaluation struct {
	e         *Engine
	s         *Session
	tool      string
	args      map[string]any // within the limits
	rawResult any

	fp      string
	cmds    commandCache
	actDone bool
	act     activation
	call    celCall
	sess    sessionVal
}

func (ev *evaluation) boundedArgs() map[string]any { return ev.args }

// fingerprint returns the call's fingerprint, computed once.
func (ev *evaluation) fingerprint() string {
	if ev.fp == "" {
		ev.fp = fingerprint(ev.tool, ev.args)
	}
	return ev.fp
}

// fieldString returns the string form of the argument a field condition
// names; false when it is missing or not a scalar.
func (ev *evaluation) fieldString(field string) (string, bool) {
	v, ok := lookupField(ev.boundedArgs(), field)
	if !ok {
		return "", false
	}
	return scalarString(v)
}

func (ev *evaluation) activation() *activation {
	if !ev.actDone {
		args := ev.boundedArgs()
		ev.call = celCall{
			Tool:        ev.tool,
			Args:        args,
			Result:      boundValue(ev.rawResult, MaxStringBytes),
			Path:        callPath(args),
			Fingerprint: ev.fingerprint(),
			Index:       int64(ev.s.Len()),
			cmds:        &ev.cmds,
		}
		// The call's view, the session's and the activation live in
		// the evaluation: one allocation for all of them.
		ev.sess = sessionVal{s: ev.s, e: ev.e}
		ev.act = activation{call: ev.e.callValuePtr(&ev.call), session: &ev.sess}
		ev.actDone = true
	}
	return &ev.act
}

// checkLiteralPatterns compiles every literal pattern given to
// session.lastMatch, so that a bad one is a compile error, not a run-time
// one.
func checkLiteralPatterns(a *cel.Ast) *CheckError {
	native := a.NativeRep()
	calls := celast.MatchDescendants(celast.NavigateAST(native), celast.FunctionMatcher("lastMatch"))
	for _, c := range calls {
		args := c.AsCall().Args()
		if len(args) != 3 || args[2].Kind() != celast.LiteralKind {
			continue
		}
		lit, ok := args[2].AsLiteral().(types.String)
		if !ok {
			continue
		}
		if _, err := compileCached(string(lit)); err != nil {
			loc := native.SourceInfo().GetStartLocation(args[2].ID())
			return &CheckError{Line: loc.Line(), Column: loc.Column() + 1,
				Msg: fmt.Sprintf("%v; write an RE2 regular expression (Go regexp syntax: no lookaround or backreferences)", err.Error())}
		}
	}
	return nil
}

var _ ref.Val = (*sessionVal)(nil)
