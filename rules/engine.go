package rules

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
)

// Phase says when a runtime asks the engine about a call.
type Phase string

// The two phases of a call.
const (
	// Pre is before the call runs: rules whose action is block or warn
	// apply. The runtime does not run a call whose verdict is block.
	Pre Phase = "pre"
	// Post is after the call ran, with its result: rules whose action is
	// remind apply.
	Post Phase = "post"
)

// Engine evaluates one compiled profile. Compile builds it once; every
// regular expression and CEL program is compiled then (CompileDeferred: each
// CEL program when a call first reaches its rule). An Engine is safe for
// concurrent use (a Session is not).
type Engine struct {
	profile Profile
	// families maps a tool to the families it belongs to, sorted.
	families map[string][]string
	// familyTools maps a family to its tools, with the family name itself
	// (a tool may share a family's name), without duplicates.
	familyTools map[string][]string
	// byTool maps a tool named in some trigger to the rules of each phase
	// that apply to it, in rule order; wildcard holds the rules of "*".
	byTool   map[string]*[2][]*compiledRule
	wildcard [2][]*compiledRule
	adapter  types.Adapter
	gate     *Gate
	onError  OnError
}

// compiledRule is a Rule with its condition made ready to run.
type compiledRule struct {
	id       string
	action   Action
	message  string
	cooldown int
	cond     condition
}

// condition is a compiled Condition; nil means always.
type condition interface {
	holds(ev *evaluation) (bool, error)
}

func phaseIndex(p Phase) int {
	if p == Post {
		return 1
	}
	return 0
}

// Compile checks a profile and compiles it into an Engine. The error, when
// not nil, lists every problem found (one *CheckError each, reachable with
// errors.As through Unwrap), each naming the rule and saying how to fix it.
// Rules with enabled: false are checked too, but never run.
func Compile(p Profile) (*Engine, error) { return compile(p, false) }

// CompileDeferred is Compile for a process that judges one call and exits
// (the Claude Code hook): it checks what Compile checks, except that each
// CEL expression is parsed, type-checked and compiled the first time a
// call its rule applies to reaches it, so a call pays only for the rules
// its tool triggers. An expression that fails then is that rule's error on
// the call, as a rule that errors is (a block or ask rule's call is
// denied). Use it on a profile Compile accepted before, such as a built
// bundle's.
func CompileDeferred(p Profile) (*Engine, error) { return compile(p, true) }

func compile(p Profile, deferCEL bool) (*Engine, error) {
	e := &Engine{
		families:    make(map[string][]string),
		familyTools: make(map[string][]string),
		byTool:      make(map[string]*[2][]*compiledRule),
	}
	// Deferred, the CEL environment too is built by the first expression
	// a call reaches (callValue then uses its adapter).
	var env *cel.Env
	if !deferCEL {
		var err error
		if env, err = celEnv(); err != nil {
			return nil, fmt.Errorf("building the CEL environment: %w", err)
		}
		e.adapter = env.CELTypeAdapter()
	}
	var errs []error

	// Copy the profile, rules sorted by id.
	p.Rules = slices.Clone(p.Rules)
	slices.SortStableFunc(p.Rules, func(a, b Rule) int { return cmp.Compare(a.ID, b.ID) })
	e.profile = p

	for fam, tools := range p.ToolFamilies {
		if fam == "" {
			errs = append(errs, &CheckError{Field: "tool_families", Msg: "a tool family has an empty name; give it a name such as edit or read"})
			continue
		}
		members := []string{fam}
		for _, t := range tools {
			if t == "" {
				errs = append(errs, &CheckError{Field: "tool_families." + fam, Msg: "a tool name is empty; list the tools' names, e.g. [\"Edit\", \"write_file\"]"})
				continue
			}
			if !slices.Contains(members, t) {
				members = append(members, t)
			}
			if !slices.Contains(e.families[t], fam) {
				e.families[t] = append(e.families[t], fam)
			}
		}
		e.familyTools[fam] = members
	}
	for _, fams := range e.families {
		slices.Sort(fams)
	}

	for i, r := range p.Rules {
		if i > 0 && p.Rules[i-1].ID == r.ID {
			errs = append(errs, &CheckError{Rule: r.ID, Field: "id", Msg: "the rule is defined twice; give each rule its own id"})
			continue
		}
		cr, rerrs := compileRule(env, r, deferCEL, len(p.ToolFamilies))
		errs = append(errs, rerrs...)
		if len(rerrs) > 0 || !r.Enabled {
			continue
		}
		e.add(cr, r.Trigger)
	}
	if len(errs) > 0 {
		return nil, &CompileError{Profile: p.Name, Errs: errs}
	}
	return e, nil
}

// add files a compiled rule under the tools its trigger matches.
func (e *Engine) add(cr *compiledRule, trigger string) {
	ph := phaseIndex(cr.action.Phase())
	if trigger == "*" {
		e.wildcard[ph] = append(e.wildcard[ph], cr)
		for _, lists := range e.byTool {
			lists[ph] = append(lists[ph], cr)
		}
		return
	}
	for _, t := range e.members(trigger) {
		lists := e.byTool[t]
		if lists == nil {
			// A tool seen for the first time starts with the wildcard rules
			// added so far; rules come in id order, so lists stay sorted.
			lists = &[2][]*compiledRule{slices.Clone(e.wildcard[0]), slices.Clone(e.wildcard[1])}
			e.byTool[t] = lists
		}
		lists[ph] = append(lists[ph], cr)
	}
}

// members returns the tools a name stands for in a trigger or a session
// function: the tools of the family of that name, and a tool of that name.
func (e *Engine) members(name string) []string {
	if m, ok := e.familyTools[name]; ok {
		return m
	}
	return []string{name}
}

// mapped returns the charter tool the gate's runtime table maps a tool
// name to, or "".
func (e *Engine) mapped(tool string) string {
	if e.gate == nil {
		return ""
	}
	if t := e.gate.Names[tool]; t != tool {
		return t
	}
	return ""
}

// toolFamilies returns the families of a tool, and of the charter tool the
// gate maps it to: a runtime's name for a tool is that tool to the rules.
func (e *Engine) toolFamilies(tool string) []string {
	fams := e.families[tool]
	if t := e.mapped(tool); t != "" {
		for _, f := range e.families[t] {
			if !slices.Contains(fams, f) {
				fams = append(slices.Clip(fams), f)
			}
		}
		slices.Sort(fams)
	}
	return fams
}

// sessionMembers returns the tools a name stands for in a session
// function (members), with the runtime names the gate maps to one of them.
func (e *Engine) sessionMembers(name string) []string {
	m := e.members(name)
	if e.gate == nil {
		return m
	}
	var extra []string
	for n, t := range e.gate.Names {
		if n != t && slices.Contains(m, t) && !slices.Contains(m, n) {
			extra = append(extra, n)
		}
	}
	if extra == nil {
		return m
	}
	slices.Sort(extra)
	return append(slices.Clip(m), extra...)
}

// rulesFor returns the rules of phase ph that apply to a call of tool, in
// id order: those its trigger names, and those that name the charter tool
// the gate maps it to.
func (e *Engine) rulesFor(tool string, ph int) []*compiledRule {
	list := e.wildcard[ph]
	if lists := e.byTool[tool]; lists != nil {
		list = lists[ph]
	}
	t := e.mapped(tool)
	if t == "" || e.byTool[t] == nil {
		return list
	}
	other := e.byTool[t][ph]
	merged := make([]*compiledRule, 0, len(list)+len(other))
	i, j := 0, 0
	for i < len(list) || j < len(other) {
		switch {
		case j == len(other) || i < len(list) && list[i].id < other[j].id:
			merged = append(merged, list[i])
			i++
		case i == len(list) || other[j].id < list[i].id:
			merged = append(merged, other[j])
			j++
		default: // the same rule in both
			merged = append(merged, list[i])
			i++
			j++
		}
	}
	return merged
}

// Profile returns the profile the engine was compiled from, rules sorted by
// id.
func (e *Engine) Profile() Profile { return e.profile }

// Families returns the families a tool belongs to, sorted; the caller must
// not modify the result.
func (e *Engine) Families(tool string) []string { return e.families[tool] }

// compileRule checks one rule and compiles its condition (deferred:
// see CompileDeferred), for a profile of families tool families.
func compileRule(env *cel.Env, r Rule, deferCEL bool, families int) (*compiledRule, []error) {
	var errs []error
	fail := func(field, format string, args ...any) {
		errs = append(errs, &CheckError{Rule: r.ID, Field: field, Msg: fmt.Sprintf(format, args...)})
	}
	if r.ID == "" {
		fail("id", "the rule has no id; every rule needs a unique id (its key under rules)")
	}
	switch r.Action {
	case Block, Ask, Warn, Remind:
	case "":
		fail("action", "the rule has no action; set action to block, ask, warn or remind")
	default:
		fail("action", "unknown action %q; use block, ask, warn or remind", r.Action)
	}
	if r.Trigger == "" {
		fail("trigger", "the rule has no trigger; set trigger to a tool name, a tool family or \"*\" for every call")
	}
	switch {
	case r.Cooldown < 0:
		fail("cooldown", "cooldown is %d; use 0 or a positive number of calls", r.Cooldown)
	case r.Cooldown > 0 && r.Action == Block:
		fail("cooldown", "a block rule takes no cooldown: it would let the blocked call through once other calls ran; remove it (an ask rule's cooldown counts from the user's approval)")
	}
	cr := &compiledRule{id: r.ID, action: r.Action, message: r.Message, cooldown: r.Cooldown}
	if cr.message == "" {
		cr.message = r.Text
	}
	if r.Condition != nil {
		cond, cerrs := compileCondition(env, *r.Condition, deferCEL, families)
		for _, err := range cerrs {
			err.Rule = r.ID
			errs = append(errs, err)
		}
		cr.cond = cond
	}
	return cr, errs
}

// compileCondition checks a condition and compiles it, for a profile of
// families tool families. Errors leave Rule empty for the caller to fill.
func compileCondition(env *cel.Env, c Condition, deferCEL bool, families int) (condition, []*CheckError) {
	var errs []*CheckError
	fail := func(field, format string, args ...any) {
		errs = append(errs, &CheckError{Field: "condition." + field, Msg: fmt.Sprintf(format, args...)})
	}
	// Which fields a type uses; the others must be empty.
	uses := map[ConditionType][]string{
		Contains: {"field", "substring"},
		Matches:  {"field", "pattern"},
		NotIn:    {"field", "values"},
		Expr:     {"expr"},
	}
	used, ok := uses[c.Type]
	if !ok {
		if c.Type == "" {
			fail("type", "the condition has no type; set type to contains, matches, not_in or expr")
		} else {
			fail("type", "unknown condition type %q; use contains, matches, not_in or expr", c.Type)
		}
		return nil, errs
	}
	set := map[string]bool{
		"field":     c.Field != "",
		"substring": c.Substring != "",
		"pattern":   c.Pattern != "",
		"values":    c.Values != nil,
		"expr":      c.Expr != "",
	}
	for _, f := range []string{"field", "substring", "pattern", "values", "expr"} {
		if set[f] && !slices.Contains(used, f) {
			fail(f, "%s does not apply to %s conditions; remove it, or change the type", f, c.Type)
		}
	}
	if c.Type != Expr && c.Field == "" {
		fail("field", "a %s condition needs field: the name of the call argument to look at, e.g. \"command\" or \"path\"", c.Type)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	switch c.Type {
	case Contains:
		if c.Substring == "" {
			fail("substring", "a contains condition needs a non-empty substring; to match every call, leave the condition out")
			return nil, errs
		}
		return &containsCond{field: c.Field, sub: c.Substring}, nil
	case Matches:
		if c.Pattern == "" {
			fail("pattern", "a matches condition needs a pattern: an RE2 regular expression")
			return nil, errs
		}
		re, err := regexp.Compile(c.Pattern)
		if err != nil {
			fail("pattern", "the pattern does not compile: %v; write an RE2 regular expression (Go regexp syntax: no lookaround or backreferences)", err)
			return nil, errs
		}
		return &matchesCond{field: c.Field, re: re}, nil
	case NotIn:
		if len(c.Values) == 0 {
			fail("values", "a not_in condition needs at least one value; to match every call, leave the condition out")
			return nil, errs
		}
		set := make(map[string]bool, len(c.Values))
		for _, v := range c.Values {
			set[v] = true
		}
		return &notInCond{field: c.Field, values: set}, nil
	}
	// Expr.
	if c.Expr == "" {
		fail("expr", "an expr condition needs expr: a CEL expression over call and session that yields a bool")
		return nil, errs
	}
	if deferCEL {
		src := c.Expr
		return &deferredExprCond{compile: sync.OnceValues(func() (cel.Program, error) {
			env, err := celEnv()
			if err != nil {
				return nil, fmt.Errorf("building the CEL environment: %w", err)
			}
			prg, cerr := compileExpr(env, src, families)
			if cerr != nil {
				cerr.Field = "condition.expr"
				return nil, cerr
			}
			return prg, nil
		})}, nil
	}
	prg, cerr := compileExpr(env, c.Expr, families)
	if cerr != nil {
		cerr.Field = "condition.expr"
		return nil, []*CheckError{cerr}
	}
	return &exprCond{prg: prg}, nil
}

// compileExpr type-checks a CEL condition and makes its program, for a
// profile of families tool families.
func compileExpr(env *cel.Env, src string, families int) (cel.Program, *CheckError) {
	parsed, iss := env.Parse(src)
	if iss != nil && iss.Err() != nil {
		return nil, celIssue("the expression does not parse", iss)
	}
	ast, iss := env.Check(parsed)
	if iss != nil && iss.Err() != nil {
		return nil, celIssue("the expression does not type-check", iss)
	}
	out := ast.OutputType()
	if !out.IsExactType(cel.BoolType) && !out.IsExactType(cel.DynType) {
		return nil, &CheckError{Line: 1, Column: 1, Msg: fmt.Sprintf("the expression yields %s, not bool; a condition must be true or false (compare it, e.g. `... > 0`)", out)}
	}
	if err := checkLiteralPatterns(ast); err != nil {
		return nil, err
	}
	// Every expression runs under the cost limit, and the functions whose
	// result can outgrow their input many times over (replace, split,
	// join, lists.range, flatten) refuse a result past maxCELResult before they
	// make it: the cost limit counts a result only once it exists. A call
	// that makes a large string costs by its size (resultSizeCost).
	// An expression whose cost is bounded within the limit whatever the
	// call runs without the tracker (boundedCost).
	opts := []cel.ProgramOption{cel.EvalOptions(cel.OptOptimize), cel.CustomDecoratorV2(guardAllocations)}
	if !boundedCost(env, ast, families) {
		opts = append(opts, cel.CostLimit(costLimit), cel.CostTracking(resultSizeCost{}))
	}
	prg, err := env.Program(ast, opts...)
	if err != nil {
		return nil, &CheckError{Line: 1, Column: 1, Msg: fmt.Sprintf("the expression cannot run: %v", err)}
	}
	return prg, nil
}

// celIssue turns CEL's first issue into a CheckError at its position.
func celIssue(what string, iss *cel.Issues) *CheckError {
	errs := iss.Errors()
	e := errs[0]
	ce := &CheckError{
		Line:   e.Location.Line(),
		Column: e.Location.Column() + 1,
		Msg:    fmt.Sprintf("%s: %s; docs/rules.md lists the variables (call, session) and functions an expression may use", what, e.Message),
	}
	if n := len(errs); n > 1 {
		if n == 2 {
			ce.Msg += " (1 more problem follows)"
		} else {
			ce.Msg += fmt.Sprintf(" (%d more problems follow)", n-1)
		}
	}
	return ce
}

// CheckError is one problem with a rule (or a profile) found by Compile,
// CheckRule or CheckCondition.
type CheckError struct {
	// Rule is the rule's id; empty for a problem outside any rule and from
	// CheckCondition.
	Rule string
	// Field is the rule's field at fault, as a dotted path within the rule:
	// "action", "trigger", "cooldown", "condition.type", "condition.pattern",
	// "condition.expr", ...; for a problem outside the rules, the profile's
	// field ("tool_families.edit").
	Field string
	// Line and Column locate the problem within a CEL expression, from 1;
	// both are 0 for any other field.
	Line, Column int
	// Msg says what is wrong and how to fix it.
	Msg string
}

// Error returns `rule "ID": FIELD: MESSAGE`, with LINE:COL after the field
// for a CEL expression.
func (e *CheckError) Error() string {
	var b strings.Builder
	if e.Rule != "" {
		fmt.Fprintf(&b, "rule %q: ", e.Rule)
	}
	if e.Field != "" {
		b.WriteString(e.Field)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d:%d", e.Line, e.Column)
		}
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// CompileError is every problem Compile found in a profile.
type CompileError struct {
	// Profile is the profile's name.
	Profile string
	// Errs are the problems, most of them *CheckError, in rule order.
	Errs []error
}

// Error lists the problems one per line.
func (e *CompileError) Error() string {
	var b strings.Builder
	name := e.Profile
	if name == "" {
		name = "(unnamed)"
	}
	fmt.Fprintf(&b, "profile %s: %d problem", name, len(e.Errs))
	if len(e.Errs) != 1 {
		b.WriteString("s")
	}
	for _, err := range e.Errs {
		b.WriteString("\n\t")
		b.WriteString(err.Error())
	}
	return b.String()
}

// Unwrap returns the problems, for errors.As and errors.Is.
func (e *CompileError) Unwrap() []error { return e.Errs }

// CheckRule checks one rule as Compile does, without building an engine:
// its id, action, trigger, cooldown and condition. It returns nil or a
// *CompileError listing *CheckError values, each of which a caller can
// report at the rule's position.
func CheckRule(r Rule) error {
	env, err := celEnv()
	if err != nil {
		return fmt.Errorf("building the CEL environment: %w", err)
	}
	_, errs := compileRule(env, r, false, 0)
	if len(errs) == 0 {
		return nil
	}
	return &CompileError{Errs: errs}
}

// CheckCondition checks one condition as Compile does: its type, that it
// has the fields its type needs and no others, that a pattern compiles and
// that an expression type-checks and yields a bool. It returns nil or a
// *CheckError (Rule empty, Field within the rule such as
// "condition.pattern").
func CheckCondition(c Condition) error {
	env, err := celEnv()
	if err != nil {
		return fmt.Errorf("building the CEL environment: %w", err)
	}
	_, errs := compileCondition(env, c, false, 0)
	if len(errs) == 0 {
		return nil
	}
	if len(errs) == 1 {
		return errs[0]
	}
	all := make([]error, len(errs))
	for i, e := range errs {
		all[i] = e
	}
	return &CompileError{Errs: all}
}

// Field conditions.

type containsCond struct{ field, sub string }

func (c *containsCond) holds(ev *evaluation) (bool, error) {
	s, ok := ev.fieldString(c.field)
	return ok && strings.Contains(s, c.sub), nil
}

type matchesCond struct {
	field string
	re    *regexp.Regexp
}

func (c *matchesCond) holds(ev *evaluation) (bool, error) {
	s, ok := ev.fieldString(c.field)
	return ok && c.re.MatchString(s), nil
}

type notInCond struct {
	field  string
	values map[string]bool
}

func (c *notInCond) holds(ev *evaluation) (bool, error) {
	s, ok := ev.fieldString(c.field)
	return ok && !c.values[s], nil
}

type exprCond struct{ prg cel.Program }

func (c *exprCond) holds(ev *evaluation) (bool, error) {
	out, _, err := c.prg.Eval(ev.activation())
	if err != nil {
		return false, err
	}
	b, ok := out.(types.Bool)
	if !ok {
		return false, fmt.Errorf("the expression yielded %s, not a bool", typeName(out))
	}
	return bool(b), nil
}

// deferredExprCond is an exprCond compiled on its first call
// (CompileDeferred).
type deferredExprCond struct {
	compile func() (cel.Program, error)
}

func (c *deferredExprCond) holds(ev *evaluation) (bool, error) {
	prg, err := c.compile()
	if err != nil {
		return false, err
	}
	return (&exprCond{prg: prg}).holds(ev)
}

func typeName(v ref.Val) string {
	if v == nil || v.Type() == nil {
		return "nothing"
	}
	return v.Type().TypeName()
}
