package rules

import (
	"fmt"
	"reflect"
	"regexp"
	"sync"
	"sync/atomic"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
	"cel.dev/cel-go/ext"
	"cel.dev/cel-go/interpreter"
)

// celCall is what the CEL variable call (and session.call(i)) holds; CEL
// sees it as the object type charter.Call.
type celCall struct {
	Tool        string         `cel:"tool"`
	Families    []string       `cel:"families"`
	Args        map[string]any `cel:"args"`
	Result      any            `cel:"result"`
	Path        string         `cel:"path"`
	Fingerprint string         `cel:"fingerprint"`
	Index       int64          `cel:"index"`
	// cmds parses the call's command argument for call.commands().
	cmds *commandCache
}

var (
	callCELType    = cel.ObjectType("charter.Call")
	sessionCELType = cel.OpaqueType("charter.Session")
	emptyArgs      = map[string]any{}
)

// costLimit bounds the work of one expression on one call (CEL's cost
// units: about one per operation, and one per ten bytes a string function
// scans), so that no expression runs away (ten million steps of a
// comprehension take about a second); an expression over the limit
// errors. It leaves room for some 25 scans of an argument of
// MaxStringBytes.
const costLimit = 10_000_000

// sessionVal is the CEL value of the variable session.
type sessionVal struct {
	s *Session
	e *Engine
}

func (v *sessionVal) ConvertToNative(reflect.Type) (any, error) {
	return nil, fmt.Errorf("a session cannot be converted to a native value")
}

func (v *sessionVal) ConvertToType(t ref.Type) ref.Val {
	if t == types.TypeType {
		return sessionCELType
	}
	return types.NewErr("a session cannot be converted to %s", t.TypeName())
}

func (v *sessionVal) Equal(other ref.Val) ref.Val {
	o, ok := other.(*sessionVal)
	return types.Bool(ok && o.s == v.s)
}

func (v *sessionVal) Type() ref.Type { return sessionRuntimeType{} }

// Size returns the number of recorded calls, for size(session).
func (v *sessionVal) Size() ref.Val { return types.Int(v.s.Len()) }

// sessionRuntimeType is the run-time type of a session value: the declared
// opaque type's name, with the Sizer trait that size() needs.
type sessionRuntimeType struct{}

func (sessionRuntimeType) HasTrait(trait int) bool { return trait == traits.SizerType }

func (sessionRuntimeType) TypeName() string { return "charter.Session" }

func (v *sessionVal) Value() any { return v.s }

// activation resolves the two variables of a condition.
type activation struct {
	call    ref.Val
	session ref.Val
}

func (a *activation) ResolveName(name string) (any, bool) {
	switch name {
	case "call":
		return a.call, true
	case "session":
		return a.session, true
	}
	return nil, false
}

func (a *activation) Parent() interpreter.Activation { return nil }

// celEnv is the one CEL environment of every condition. It does not depend
// on the profile: tool families are resolved at evaluation time through the
// engine the session value carries.
var celEnv = sync.OnceValues(newCELEnv)

// celAdapter is the environment's type adapter, for the functions that
// make values of charter's types.
var celAdapter types.Adapter

func newCELEnv() (*cel.Env, error) {
	env, err := cel.NewEnv(celOptions()...)
	if err != nil {
		return nil, err
	}
	celAdapter = env.CELTypeAdapter()
	return env, nil
}

func celOptions() []cel.EnvOption {
	sessFn := func(name string, args []*cel.Type, result *cel.Type, id string, binding cel.OverloadOpt) cel.EnvOption {
		return cel.Function(name, cel.MemberOverload(id, append([]*cel.Type{sessionCELType}, args...), result, binding))
	}
	str, integer := cel.StringType, cel.IntType
	return append(shellFunctions(),
		ext.NativeTypes(types.NativeTypeFor[celCall](types.NativeTypeAlias("charter.Call"), types.ParseStructTags(true))),
		ext.Strings(),
		ext.Math(),
		ext.Lists(),
		ext.Sets(),
		cel.OptionalTypes(),
		cel.Variable("call", callCELType),
		cel.Variable("session", sessionCELType),
		secretFunctions(),
		// size is bound once for every type (through traits.Sizer): these
		// overloads only declare it for sessions.
		cel.Function("size",
			cel.Overload("size_charter_session", []*cel.Type{sessionCELType}, integer),
			cel.MemberOverload("charter_session_size", []*cel.Type{sessionCELType}, integer)),
		sessFn("count", []*cel.Type{str}, integer, "charter_session_count_string",
			cel.BinaryBinding(func(v, name ref.Val) ref.Val {
				sv := v.(*sessionVal)
				return types.Int(sv.s.count(sv.e.sessionMembers(string(name.(types.String)))))
			})),
		sessFn("last", []*cel.Type{str}, integer, "charter_session_last_string",
			cel.BinaryBinding(func(v, name ref.Val) ref.Val {
				sv := v.(*sessionVal)
				return types.Int(sv.s.last(sv.e.sessionMembers(string(name.(types.String)))))
			})),
		sessFn("since", []*cel.Type{str}, integer, "charter_session_since_string",
			cel.BinaryBinding(func(v, name ref.Val) ref.Val {
				sv := v.(*sessionVal)
				last := sv.s.last(sv.e.sessionMembers(string(name.(types.String))))
				return types.Int(sv.s.Len() - 1 - last)
			})),
		sessFn("countAfter", []*cel.Type{str, integer}, integer, "charter_session_count_after_string_int",
			cel.FunctionBinding(func(args ...ref.Val) ref.Val {
				sv := args[0].(*sessionVal)
				after := int64(args[2].(types.Int))
				after = max(min(after, int64(sv.s.Len())), -1)
				return types.Int(sv.s.countAfter(sv.e.sessionMembers(string(args[1].(types.String))), int(after)))
			})),
		sessFn("lastPath", []*cel.Type{str, str}, integer, "charter_session_last_path_string_string",
			cel.FunctionBinding(func(args ...ref.Val) ref.Val {
				sv := args[0].(*sessionVal)
				return types.Int(sv.s.lastPath(sv.e.sessionMembers(string(args[1].(types.String))), string(args[2].(types.String))))
			})),
		sessFn("hasPath", []*cel.Type{str, str}, cel.BoolType, "charter_session_has_path_string_string",
			cel.FunctionBinding(func(args ...ref.Val) ref.Val {
				sv := args[0].(*sessionVal)
				return types.Bool(sv.s.lastPath(sv.e.sessionMembers(string(args[1].(types.String))), string(args[2].(types.String))) >= 0)
			})),
		sessFn("lastMatch", []*cel.Type{str, str, str}, integer, "charter_session_last_match_string_string_string",
			cel.FunctionBinding(func(args ...ref.Val) ref.Val {
				sv := args[0].(*sessionVal)
				field, pattern := string(args[2].(types.String)), string(args[3].(types.String))
				re, err := compileCached(pattern)
				if err != nil {
					return types.NewErr("session.lastMatch: %v", err)
				}
				return types.Int(sv.s.lastMatch(sv.e.sessionMembers(string(args[1].(types.String))), field, pattern, re))
			})),
		sessFn("call", []*cel.Type{integer}, callCELType, "charter_session_call_int",
			cel.BinaryBinding(func(v, index ref.Val) ref.Val {
				sv := v.(*sessionVal)
				i := int64(index.(types.Int))
				n := int64(sv.s.Len())
				if i < 0 {
					i += n
				}
				if n == 0 {
					return types.NewErr("session.call(%d): the session has no calls yet; guard with size(session) > 0", int64(index.(types.Int)))
				}
				if i < 0 || i >= n {
					return types.NewErr("session.call(%d): index out of range; the session has %d calls (0 to %d, or -1 to -%d from the end)", int64(index.(types.Int)), n, n-1, n)
				}
				return sv.e.callValue(sv.s.historyCall(int(i)))
			})),
		sessFn("streak", nil, integer, "charter_session_streak",
			cel.UnaryBinding(func(v ref.Val) ref.Val { return types.Int(v.(*sessionVal).s.streakLen()) })),
		sessFn("lastFired", []*cel.Type{str}, integer, "charter_session_last_fired_string",
			cel.BinaryBinding(func(v, rule ref.Val) ref.Val {
				i, ok := v.(*sessionVal).s.LastFired(string(rule.(types.String)))
				if !ok {
					return types.Int(-1)
				}
				return types.Int(i)
			})),
	)
}

// historyCall returns the CEL view of the recorded call at index i.
func (s *Session) historyCall(i int) celCall {
	c := s.callAt(i)
	e := &s.calls[i]
	cmds := newCommandCache(c.Args)
	return celCall{
		Tool:        c.Tool,
		Args:        c.Args,
		Result:      c.Result,
		Path:        e.path,
		Fingerprint: e.fingerprint,
		Index:       int64(i),
		cmds:        &cmds,
	}
}

// streakLen returns how many calls at the end of the session share the
// fingerprint of the last one (0 for an empty session).
func (s *Session) streakLen() int {
	if s.Len() == 0 {
		return 0
	}
	return s.streak
}

// callValue completes a call's CEL view with its families and wraps it.
func (e *Engine) callValue(c celCall) ref.Val { return e.callValuePtr(&c) }

// callValuePtr is callValue of a view the caller keeps.
func (e *Engine) callValuePtr(c *celCall) ref.Val {
	c.Families = e.toolFamilies(c.Tool)
	if c.Families == nil {
		c.Families = []string{}
	}
	if c.Args == nil {
		c.Args = emptyArgs
	}
	if e.adapter == nil {
		// CompileDeferred's engine: an expression is evaluated only after
		// it compiled, which built the environment and celAdapter.
		return celAdapter.NativeToValue(c)
	}
	return e.adapter.NativeToValue(c)
}

// regexCache holds the patterns lastMatch compiled, shared by every engine.
var (
	regexCache     sync.Map // pattern -> regexResult
	regexCacheSize atomic.Int64
)

type regexResult struct {
	re  *regexp.Regexp
	err error
}

// maxRegexCache bounds the number of cached patterns; past it, patterns are
// compiled on every use.
const maxRegexCache = 1024

func compileCached(pattern string) (*regexp.Regexp, error) {
	if r, ok := regexCache.Load(pattern); ok {
		res := r.(regexResult)
		return res.re, res.err
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		err = fmt.Errorf("pattern %q does not compile: %w", pattern, err)
	}
	if regexCacheSize.Load() < maxRegexCache {
		if _, loaded := regexCache.LoadOrStore(pattern, regexResult{re, err}); !loaded {
			regexCacheSize.Add(1)
		}
	}
	return re, err
}
