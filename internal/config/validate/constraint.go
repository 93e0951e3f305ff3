package validate

import (
	"fmt"
	"slices"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/format"
)

// enumOptions returns the literal alternatives of a disjunction of strings
// (or numbers), sorted, or nil when the value is not such a disjunction.
func enumOptions(s cue.Value) []string {
	op, args := s.Expr()
	if op != cue.OrOp {
		return nil
	}
	var out []string
	for _, a := range args {
		if str, err := a.String(); err == nil {
			out = append(out, str)
			continue
		}
		if a.IsConcrete() {
			b, err := a.MarshalJSON()
			if err == nil {
				out = append(out, string(b))
				continue
			}
		}
		return nil
	}
	slices.Sort(out)
	return out
}

// describe says in words what a schema value accepts: "a number from 0 to
// 1", "a non-empty string", "one of: a, b".
func describe(s cue.Value) string {
	if opts := enumOptions(s); opts != nil {
		return "one of: " + strings.Join(opts, ", ")
	}
	kind := kindName(s.IncompleteKind())
	var lo, hi, ne, re string
	var visit func(v cue.Value)
	depth := 0
	visit = func(v cue.Value) {
		op, args := v.Expr()
		switch op {
		case cue.AndOp:
			for _, a := range args {
				visit(a)
			}
		case cue.GreaterThanEqualOp:
			lo = lit(args)
		case cue.GreaterThanOp:
			lo = "more than " + lit(args)
		case cue.LessThanEqualOp:
			hi = lit(args)
		case cue.LessThanOp:
			hi = "less than " + lit(args)
		case cue.NotEqualOp:
			if lit(args) == `""` {
				ne = "non-empty "
			}
		case cue.RegexMatchOp:
			re = lit(args)
		case cue.SelectorOp:
			// A reference to a definition (#Owner): what it holds.
			if d := cue.Dereference(v); d != v && depth < 8 {
				depth++
				visit(d)
			}
		}
	}
	visit(s)
	switch {
	case re != "":
		return fmt.Sprintf("%s matching %s", article(ne+kind), re)
	case lo != "" && hi != "":
		if strings.HasPrefix(lo, "more") || strings.HasPrefix(hi, "less") {
			return fmt.Sprintf("%s %s and %s", article(kind), lo, hi)
		}
		return fmt.Sprintf("%s from %s to %s", article(kind), lo, hi)
	case lo != "":
		if strings.HasPrefix(lo, "more") {
			return fmt.Sprintf("%s %s", article(kind), lo)
		}
		return fmt.Sprintf("%s of at least %s", article(kind), lo)
	case hi != "":
		return fmt.Sprintf("%s of at most %s", article(kind), hi)
	}
	return article(ne + kind)
}

func lit(args []cue.Value) string {
	if len(args) != 1 {
		return "?"
	}
	b, err := format.Node(args[0].Syntax())
	if err != nil {
		return "?"
	}
	return string(b)
}

func article(s string) string {
	if s == "" {
		return "a value"
	}
	switch s[0] {
	case 'a', 'e', 'i', 'o', 'u':
		return "an " + s
	}
	return "a " + s
}

func kindName(k cue.Kind) string {
	switch {
	case k == cue.IntKind:
		return "integer"
	case k == cue.NumberKind || k == cue.FloatKind:
		return "number"
	case k == cue.StringKind:
		return "string"
	case k == cue.BoolKind:
		return "boolean"
	case k == cue.StructKind:
		return "struct"
	case k == cue.ListKind:
		return "list"
	case k == cue.StringKind|cue.NumberKind:
		return "string or number"
	}
	return strings.ReplaceAll(k.String(), "|", " or ")
}

// show renders a concrete value briefly for a message.
func show(v cue.Value) string {
	if !v.Exists() {
		return "the value"
	}
	if v.IsConcrete() {
		switch v.Kind() {
		case cue.StructKind:
			return "a struct"
		case cue.ListKind:
			return "a list"
		}
		b, err := v.MarshalJSON()
		if err == nil {
			if len(b) > 60 {
				return string(b[:57]) + `..."`
			}
			return string(b)
		}
	}
	return kindName(v.IncompleteKind())
}
