package rules

import (
	"encoding/json"
	"fmt"

	"cel.dev/cel-go/cel"
	celast "cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
)

// Decision is the verdict on a call: whether it may run.
type Decision string

// The two decisions.
const (
	// Allowed: no rule with action block fired.
	Allowed Decision = "allow"
	// Blocked: at least one rule with action block fired; the call must not
	// run.
	Blocked Decision = "block"
)

// Verdict is the engine's answer for one call in one phase.
//
// In JSON: {"phase":"pre","decision":"block","fired":[{"rule":...,
// "action":...,"message":...}],"errors":[{"rule":...,"error":...}]}; fired
// and errors are always arrays, possibly empty.
type Verdict struct {
	// Phase is the phase the verdict is for.
	Phase Phase `json:"phase"`
	// Decision is block when a rule with action block fired, else allow.
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
// In phase Pre (call.Result nil), rules whose action is block or warn apply;
// in phase Post (call.Result set), rules whose action is remind apply. Every
// rule that applies to the call's tool, is enabled and not cooling down is
// evaluated, in id order, whatever fired before it; the verdict is block when
// any block rule fired. Each rule that fires is marked in the session for
// its cooldown; the call itself is not recorded: the runtime calls
// s.Record(call) after phase Post, and never for a blocked call.
//
// A condition that fails at run time (a CEL error, or a cost limit hit) is
// reported in Verdict.Errors and the other rules still run.
func (e *Engine) Evaluate(phase Phase, call Call, s *Session) Verdict {
	v := Verdict{Phase: phase, Decision: Allowed}
	if phase != Pre && phase != Post {
		v.Errors = append(v.Errors, RuleError{Error: fmt.Sprintf("unknown phase %q; use %q before the call or %q after it", phase, Pre, Post)})
		return v
	}
	if s == nil {
		s = &Session{}
	}
	tool := cutString(call.Tool, MaxHistoryStringBytes)
	if e.gate != nil && phase == Pre {
		// What the agent may call comes first: no rule runs on a call
		// it may not make.
		f, note, ok := e.gate.check(tool)
		if !ok {
			v.Decision = Blocked
			v.Fired = append(v.Fired, f)
			return v
		}
		if note != "" {
			v.Notes = append(v.Notes, note)
		}
	}
	ph := phaseIndex(phase)
	list := e.wildcard[ph]
	if lists := e.byTool[tool]; lists != nil {
		list = lists[ph]
	}
	if len(list) == 0 {
		return v
	}
	ev := evaluation{e: e, s: s, tool: tool, rawArgs: call.Args, rawResult: call.Result}
	index := s.Len()
	for _, r := range list {
		if r.cooldown > 0 {
			if last, ok := s.LastFired(r.id); ok && index > last && index-last <= r.cooldown {
				continue
			}
		}
		if r.cond != nil {
			ok, err := r.cond.holds(&ev)
			if err != nil {
				v.Errors = append(v.Errors, RuleError{Rule: r.id, Error: err.Error()})
				continue
			}
			if !ok {
				continue
			}
		}
		v.Fired = append(v.Fired, Firing{Rule: r.id, Action: r.action, Message: r.message})
		if r.action == Block {
			v.Decision = Blocked
		}
		s.MarkFired(r.id, index)
	}
	return v
}

// evaluation holds what the rules of one Evaluate share, each part made on
// first use.
type evaluation struct {
	e         *Engine
	s         *Session
	tool      string
	rawArgs   map[string]any
	rawResult any

	args    map[string]any
	bounded bool
	act     *activation
}

func (ev *evaluation) boundedArgs() map[string]any {
	if !ev.bounded {
		ev.args = boundArgs(ev.rawArgs, MaxStringBytes)
		ev.bounded = true
	}
	return ev.args
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
	if ev.act == nil {
		args := ev.boundedArgs()
		c := celCall{
			Tool:        ev.tool,
			Args:        args,
			Result:      boundValue(ev.rawResult, MaxStringBytes),
			Path:        callPath(args),
			Fingerprint: fingerprint(ev.tool, args),
			Index:       int64(ev.s.Len()),
		}
		ev.act = &activation{
			call:    ev.e.callValue(c),
			session: &sessionVal{s: ev.s, e: ev.e},
		}
	}
	return ev.act
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

// hasComprehension reports whether an expression holds a comprehension
// (the macros exists, all, exists_one, filter, map and their kin).
func hasComprehension(a *cel.Ast) bool {
	found := celast.MatchDescendants(celast.NavigateAST(a.NativeRep()), celast.KindMatcher(celast.ComprehensionKind))
	return len(found) > 0
}

var _ ref.Val = (*sessionVal)(nil)
