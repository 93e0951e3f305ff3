package validate

import (
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"
)

// A matcher decides, in Go and without CUE, whether a plain literal (the
// syntax literalJSON accepts) satisfies a schema value. It is compiled once
// per definition from the schema's evaluated value (matcherOf) and shared by
// every goroutine: it holds no CUE value, so checking a declaration
// allocates nothing of CUE's and needs no CUE context of its own.
//
// A matcher is sound, not complete: when it accepts a literal, CUE accepts
// it too (TestMatcherAgreesWithCUE and FuzzMatcher compare the two); when it
// rejects one, the caller asks CUE, which says what is wrong. So it only
// understands what charter's schema uses (kinds, concrete values, bounds,
// !=, =~ and !~, conjunctions, disjunctions, closed and open structs with
// optional, required and [string] fields, and open lists), and a value
// built of anything else compiles to no matcher at all.
type matcher interface {
	match(ast.Expr) bool
}

// maxMatcherDepth bounds the matcher of a recursive definition: deeper
// than this, matcherOf gives up.
const maxMatcherDepth = 32

// matcherOf compiles v; ok is false when v uses anything a matcher does not
// understand.
func matcherOf(v cue.Value, depth int) (m matcher, ok bool) { return compileMatcher(v, depth, false) }

// compileMatcher is matcherOf. detached is true for a value v.Expr() gave
// as an argument of a disjunction or conjunction: it is evaluated on its
// own, outside the definition it is written in, so a struct written there
// looks open though the definition closes it.
func compileMatcher(v cue.Value, depth int, detached bool) (m matcher, ok bool) {
	if depth > maxMatcherDepth {
		return nil, false
	}
	if d, hasDefault := v.Default(); hasDefault && !(v.IncompleteKind() == cue.ListKind && isEmptyList(d)) {
		// The default is what CUE gives for an absent field; the literal
		// is not the whole value then. (shape.adds keeps such
		// declarations off the fast path; this keeps matchers honest.)
		// Every open list defaults to the empty list, which adds nothing
		// a literal list does not replace.
		return nil, false
	}
	op, args := v.Expr()
	switch op {
	case cue.AndOp:
		// A struct or list is judged by its value, conjuncts merged, as
		// it is in the definition; its conjuncts on their own lose the
		// definition's closedness.
		switch v.IncompleteKind() {
		case cue.StructKind:
			return structMatcherOf(v, depth, detached)
		case cue.ListKind:
			return listMatcherOf(v, depth, detached)
		}
		all := make(allOf, 0, len(args))
		for _, a := range args {
			m, ok := compileMatcher(a, depth+1, true)
			if !ok {
				return nil, false
			}
			all = append(all, m)
		}
		return all, true
	case cue.OrOp:
		var alts anyOf
		for _, a := range args {
			m, ok := compileMatcher(a, depth+1, true)
			if !ok {
				return nil, false
			}
			alts.alts = append(alts.alts, m)
			alts.composite = append(alts.composite, a.IncompleteKind()&(cue.StructKind|cue.ListKind) != 0)
		}
		return alts, true
	case cue.NotEqualOp, cue.LessThanOp, cue.LessThanEqualOp, cue.GreaterThanOp, cue.GreaterThanEqualOp,
		cue.RegexMatchOp, cue.NotRegexMatchOp:
		if len(args) != 1 {
			return nil, false
		}
		return boundOf(op, args[0])
	case cue.NoOp, cue.SelectorOp:
		// A value as it is, or a reference to a definition (#Skill): the
		// evaluated value says what it allows either way.
	default:
		return nil, false
	}
	k := v.IncompleteKind()
	switch {
	case v.IsConcrete() && k&(cue.StructKind|cue.ListKind) == 0:
		s, ok := scalarOf(v)
		if !ok {
			return nil, false
		}
		return equal{s}, true
	case k == cue.StructKind:
		return structMatcherOf(v, depth, detached)
	case k == cue.ListKind:
		return listMatcherOf(v, depth, detached)
	case k&(cue.StructKind|cue.ListKind) == 0 || k == cue.TopKind:
		return kindsOf(k), true
	}
	return nil, false
}

// structMatcherOf compiles a struct: its fields, whether it is closed, and
// its [string] constraint. A detached struct (see compileMatcher) that
// looks open without a [string] constraint may be closed where it is
// written: it compiles to nothing. One that looks closed is a definition's
// (#B), whose fields are evaluated inside it, so they are not detached.
func structMatcherOf(v cue.Value, depth int, detached bool) (matcher, bool) {
	open := v.Allows(cue.Str("\x00probe"))
	if detached && open && !v.LookupPath(cue.MakePath(cue.AnyString)).Exists() {
		return nil, false
	}
	detached = detached && open
	s := &structMatcher{fields: map[string]matcher{}}
	it, err := v.Fields(cue.Optional(true))
	if err != nil {
		return nil, false
	}
	for it.Next() {
		sel := it.Selector()
		if !sel.IsString() {
			return nil, false
		}
		m, ok := compileMatcher(it.Value(), depth+1, detached)
		if !ok {
			return nil, false
		}
		name := sel.Unquoted()
		s.fields[name] = m
		if sel.ConstraintType() != cue.OptionalConstraint {
			// Required (name!), or regular without a concrete value
			// (one with a value adds it, and has a default matcherOf
			// refuses): either way the literal must give it.
			s.required = append(s.required, name)
		}
	}
	if open {
		if p := v.LookupPath(cue.MakePath(cue.AnyString)); p.Exists() {
			m, ok := compileMatcher(p, depth+1, detached)
			if !ok {
				return nil, false
			}
			s.pattern = m
			for name, f := range s.fields {
				s.fields[name] = allOf{f, m}
			}
		}
	} else {
		s.closed = true
	}
	return s, true
}

// listMatcherOf compiles an open list of one element type, [...X]: what
// charter's schema uses. A list with fixed elements compiles to nothing.
func listMatcherOf(v cue.Value, depth int, detached bool) (matcher, bool) {
	it, err := v.List()
	if err != nil || it.Next() {
		return nil, false
	}
	e := v.LookupPath(cue.MakePath(cue.AnyIndex))
	if !e.Exists() {
		return nil, false
	}
	m, ok := compileMatcher(e, depth+1, detached)
	if !ok {
		return nil, false
	}
	return listMatcher{m}, true
}

// boundOf compiles a unary constraint: != x, < x, <= x, > x, >= x, =~ re,
// !~ re.
func boundOf(op cue.Op, arg cue.Value) (matcher, bool) {
	s, ok := scalarOf(arg)
	if !ok {
		return nil, false
	}
	switch op {
	case cue.NotEqualOp:
		return notEqual{s}, true
	case cue.RegexMatchOp, cue.NotRegexMatchOp:
		if s.kind != cue.StringKind {
			return nil, false
		}
		re, err := regexp.Compile(s.str)
		if err != nil {
			return nil, false
		}
		return regexMatcher{re, op == cue.NotRegexMatchOp}, true
	}
	if s.num == nil {
		return nil, false // bounds on strings and bytes: not used
	}
	return numBound{op, s.num}, true
}

// scalar is a concrete null, bool, number or string, as a literal holds it.
type scalar struct {
	kind cue.Kind // NullKind, BoolKind, IntKind, FloatKind or StringKind
	b    bool
	str  string
	num  *big.Rat
}

// scalarOf returns the scalar v is.
func scalarOf(v cue.Value) (scalar, bool) {
	switch k := v.Kind(); k {
	case cue.NullKind:
		return scalar{kind: k}, true
	case cue.BoolKind:
		b, err := v.Bool()
		return scalar{kind: k, b: b}, err == nil
	case cue.StringKind:
		s, err := v.String()
		return scalar{kind: k, str: s}, err == nil
	case cue.IntKind, cue.FloatKind:
		b, err := v.MarshalJSON()
		if err != nil {
			return scalar{}, false
		}
		r, ok := new(big.Rat).SetString(string(b))
		return scalar{kind: k, num: r}, ok
	}
	return scalar{}, false
}

// literalScalar returns the scalar a literal is, if it is one.
func literalScalar(x ast.Expr) (scalar, bool) {
	neg := false
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.SUB {
		x, neg = u.X, true
	}
	lit, ok := x.(*ast.BasicLit)
	if !ok {
		return scalar{}, false
	}
	switch lit.Kind {
	case token.INT, token.FLOAT:
		if !jsonNumber().MatchString(lit.Value) || hugeExponent(lit.Value) {
			return scalar{}, false
		}
		r, ok := new(big.Rat).SetString(lit.Value)
		if !ok {
			return scalar{}, false
		}
		if neg {
			r.Neg(r)
		}
		k := cue.IntKind
		if lit.Kind == token.FLOAT {
			k = cue.FloatKind
		}
		return scalar{kind: k, num: r}, true
	}
	if neg {
		return scalar{}, false
	}
	switch lit.Kind {
	case token.STRING:
		s, ok := unquoteString(lit.Value)
		return scalar{kind: cue.StringKind, str: s}, ok
	case token.TRUE, token.FALSE:
		return scalar{kind: cue.BoolKind, b: lit.Kind == token.TRUE}, true
	case token.NULL:
		return scalar{kind: cue.NullKind}, true
	}
	return scalar{}, false
}

// hugeExponent reports whether a JSON number's exponent is beyond what a
// configuration needs (|e| > 400): big.Rat would spell 1e999999999 out in
// full, so such a number is left to CUE, whose decimals keep exponents.
func hugeExponent(num string) bool {
	i := strings.IndexAny(num, "eE")
	if i < 0 {
		return false
	}
	e, err := strconv.Atoi(num[i+1:])
	return err != nil || e > 400 || e < -400
}

// kindOf is the kind of a literal.
func kindOf(x ast.Expr) cue.Kind {
	switch x.(type) {
	case *ast.StructLit:
		return cue.StructKind
	case *ast.ListLit:
		return cue.ListKind
	}
	if s, ok := literalScalar(x); ok {
		return s.kind
	}
	return cue.BottomKind
}

// kindsOf accepts a literal of any of its kinds (string, number, _, ...).
type kindsOf cue.Kind

func (k kindsOf) match(x ast.Expr) bool {
	lk := kindOf(x)
	return lk != cue.BottomKind && lk&cue.Kind(k) == lk
}

// equal accepts one scalar. Numbers must be of the same kind too (1 is not
// 1.0 to a matcher; CUE's answer is left to CUE).
type equal struct{ s scalar }

func (e equal) match(x ast.Expr) bool {
	s, ok := literalScalar(x)
	return ok && s.kind == e.s.kind && sameScalar(s, e.s)
}

func sameScalar(a, b scalar) bool {
	switch a.kind {
	case cue.BoolKind:
		return a.b == b.b
	case cue.StringKind:
		return a.str == b.str
	case cue.IntKind, cue.FloatKind:
		return a.num.Cmp(b.num) == 0
	}
	return true // null
}

// notEqual accepts anything but one scalar. A literal of another kind is
// not equal, as CUE has it (!="" accepts 5 on its own; the string beside
// it rejects 5).
type notEqual struct{ s scalar }

func (n notEqual) match(x ast.Expr) bool {
	s, ok := literalScalar(x)
	if !ok {
		return false // a struct or list: not something != is used on here
	}
	if s.kind&(cue.IntKind|cue.FloatKind) != 0 && n.s.kind&(cue.IntKind|cue.FloatKind) != 0 {
		return s.num.Cmp(n.s.num) != 0
	}
	return s.kind != n.s.kind || !sameScalar(s, n.s)
}

// numBound accepts a number on the right side of a bound.
type numBound struct {
	op cue.Op
	n  *big.Rat
}

func (b numBound) match(x ast.Expr) bool {
	s, ok := literalScalar(x)
	if !ok || s.num == nil {
		return false
	}
	c := s.num.Cmp(b.n)
	switch b.op {
	case cue.LessThanOp:
		return c < 0
	case cue.LessThanEqualOp:
		return c <= 0
	case cue.GreaterThanOp:
		return c > 0
	case cue.GreaterThanEqualOp:
		return c >= 0
	}
	return false
}

// regexMatcher accepts a string that matches (or, negated, does not match)
// a regular expression: CUE's =~ and !~ use Go's regexp too.
type regexMatcher struct {
	re     *regexp.Regexp
	negate bool
}

func (r regexMatcher) match(x ast.Expr) bool {
	s, ok := literalScalar(x)
	return ok && s.kind == cue.StringKind && r.re.MatchString(s.str) != r.negate
}

// allOf accepts what each of its matchers accepts.
type allOf []matcher

func (a allOf) match(x ast.Expr) bool {
	for _, m := range a {
		if !m.match(x) {
			return false
		}
	}
	return true
}

// anyOf accepts what one of its alternatives accepts. Two struct or list
// alternatives that both accept a literal may give CUE two different
// values (an ambiguous disjunction), so that is left to CUE.
type anyOf struct {
	alts      []matcher
	composite []bool // alts[i] may be a struct or list
}

func (a anyOf) match(x ast.Expr) bool {
	found, composite := false, false
	for i, m := range a.alts {
		if !m.match(x) {
			continue
		}
		if found && (composite || a.composite[i]) {
			return false
		}
		found, composite = true, composite || a.composite[i]
	}
	return found
}

// structMatcher accepts a struct whose fields its fields (and pattern)
// accept, that gives every required field, and that has no other field if
// it is closed.
type structMatcher struct {
	fields   map[string]matcher
	required []string
	pattern  matcher // the [string] constraint; nil when there is none
	closed   bool
}

func (s *structMatcher) match(x ast.Expr) bool {
	lit, ok := x.(*ast.StructLit)
	if !ok {
		return false
	}
	for _, d := range lit.Elts {
		f, ok := d.(*ast.Field)
		if !ok {
			if _, comment := d.(*ast.CommentGroup); comment {
				continue
			}
			return false
		}
		name, ok := plainLabel(f)
		if !ok {
			return false
		}
		m, declared := s.fields[name]
		switch {
		case declared:
		case s.pattern != nil:
			m = s.pattern
		case s.closed:
			return false
		default:
			continue // an open struct takes anything
		}
		if !m.match(f.Value) {
			return false
		}
	}
	for _, r := range s.required {
		if !has(lit, r) {
			return false
		}
	}
	return true
}

// has reports whether a struct literal gives a field of that name.
func has(lit *ast.StructLit, name string) bool {
	for _, d := range lit.Elts {
		if f, ok := d.(*ast.Field); ok {
			if n, ok := plainLabel(f); ok && n == name {
				return true
			}
		}
	}
	return false
}

// listMatcher accepts a list whose every element elem accepts.
type listMatcher struct{ elem matcher }

func (l listMatcher) match(x ast.Expr) bool {
	lit, ok := x.(*ast.ListLit)
	if !ok {
		return false
	}
	for _, e := range lit.Elts {
		if !l.elem.match(e) {
			return false
		}
	}
	return true
}

// matchableSchema reports whether schema source text uses only what a
// matcher compiled from its values can judge: no comprehensions (a
// constraint that depends on another field's value is not in the evaluated
// value) and no pattern constraint but [string] and [Name=string]. The
// embedded schema is checked by a test; the evaluated value cannot tell.
func matchableSchema(f *ast.File) (bad string) {
	ast.Walk(f, func(n ast.Node) bool {
		if bad != "" {
			return false
		}
		switch n := n.(type) {
		case *ast.Comprehension, *ast.LetClause:
			bad = "a comprehension or let"
		case *ast.Field:
			if l, ok := n.Label.(*ast.ListLit); ok {
				if len(l.Elts) != 1 || !isStringPattern(l.Elts[0]) {
					bad = "a pattern constraint other than [string]"
				}
			}
		}
		return true
	}, nil)
	return bad
}

func isStringPattern(x ast.Expr) bool {
	if a, ok := x.(*ast.Alias); ok {
		x = a.Expr
	}
	id, ok := x.(*ast.Ident)
	return ok && id.Name == "string"
}
