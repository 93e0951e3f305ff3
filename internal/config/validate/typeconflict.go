package validate

import (
	"fmt"
	"slices"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	cueerrors "cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/token"
)

// typeConflict explains two user values of different types for one field
// ("high" in one file, 0.6 in another). CUE reports it as a conflict at
// the first value's position whose value is bottom, which read as "_ or _
// has the wrong type" at the place that was right. It names both values
// and both places, the one the schema rejects first, and returns that
// one's position for the diagnostic. got is the user's value of the
// field; ok is false when errs is not such a
// conflict or a value cannot be found in the source.
func (v *validator) typeConflict(schema, got cue.Value, errs []cueerrors.Error) (msg string, at token.Pos, ok bool) {
	// The user's value alone holds the conflict between the user's files;
	// the errors of its unification with the schema may name only one.
	if err := got.Err(); err != nil {
		errs = append(cueerrors.Errors(err), errs...)
	}
	for _, e := range errs {
		m := msgOf(e)
		if !strings.HasPrefix(m, "conflicting values") || !strings.Contains(m, "mismatched types") || fromStdlib(e) {
			continue
		}
		type place struct {
			pos   token.Pos
			text  string
			val   cue.Value
			kind  string
			fits  bool
			found bool
		}
		var places, refs []place
		for _, p := range e.InputPositions() {
			if !p.IsValid() || isEmbedded(p) {
				continue
			}
			pl := place{pos: p}
			expr := v.exprAt(p)
			if expr != nil {
				if b, err := format.Node(expr); err == nil {
					pl.text = string(b)
					val := v.repo.Context().BuildExpr(expr)
					if isReference(expr) {
						val = v.resolve(expr)
					}
					pl.val = val
					pl.found = val.Err() == nil
					pl.kind = kindName(val.IncompleteKind())
					pl.fits = !schema.Exists() || schema.Unify(val).Validate(cue.Concrete(true)) == nil
				}
			}
			if !pl.found {
				return "", token.NoPos, false
			}
			if isReference(expr) {
				refs = append(refs, pl)
				continue
			}
			places = append(places, pl)
		}
		// CUE names both the reference and the literal it reaches: the
		// reference is where the value is set for this field.
		for _, r := range refs {
			i := slices.IndexFunc(places, func(p place) bool { return p.val.Equals(r.val) })
			if i < 0 {
				places = append(places, r)
				continue
			}
			places[i] = r
		}
		if len(places) != 2 {
			return "", token.NoPos, false
		}
		if places[0].fits && !places[1].fits {
			places[0], places[1] = places[1], places[0]
		}
		first, other := places[0], places[1]
		want := ""
		if schema.Exists() {
			want = "want " + describe(schema) + "; "
		}
		return fmt.Sprintf("conflicting values %s (%s, set here) and %s (%s, set at %s): %sa field has one value: keep one of them",
			first.text, article(first.kind), other.text, article(other.kind), v.where(other.pos), want), first.pos, true
	}
	return "", token.NoPos, false
}

// exprAt returns the expression of a user file that starts at p, nil when
// none does.
func (v *validator) exprAt(p token.Pos) ast.Expr {
	for _, f := range v.repo.Files {
		if f.Syntax == nil || f.Syntax.Filename != p.Filename() {
			continue
		}
		var found ast.Expr
		ast.Walk(f.Syntax, func(n ast.Node) bool {
			if found != nil {
				return false
			}
			if e, ok := n.(ast.Expr); ok && n.Pos() == p {
				found = e
				return false
			}
			return true
		}, nil)
		return found
	}
	return nil
}

// isReference reports whether expr is a reference (an identifier or a
// selection from one), not a value written out.
func isReference(expr ast.Expr) bool {
	switch x := expr.(type) {
	case *ast.Ident:
		return true
	case *ast.SelectorExpr:
		return isReference(x.X)
	}
	return false
}

// resolve evaluates a reference (agents.ann.name, _x) in the repository's
// value, label by label: the field it reaches holds a value even where the
// struct around it does not validate (which the conflict being explained
// makes so), and a hidden field is found by its name.
func (v *validator) resolve(expr ast.Expr) cue.Value {
	var labels []string
	for {
		switch x := expr.(type) {
		case *ast.SelectorExpr:
			name, _, err := ast.LabelName(x.Sel)
			if err != nil {
				return cue.Value{}
			}
			labels = append([]string{name}, labels...)
			expr = x.X
			continue
		case *ast.Ident:
			labels = append([]string{x.Name}, labels...)
		default:
			return cue.Value{}
		}
		break
	}
	cur := cue.Value{}
	iter, err := v.repo.Value.Fields(cue.Hidden(true), cue.Definitions(true))
	if err != nil {
		return cue.Value{}
	}
	for iter.Next() {
		if iter.Selector().String() == labels[0] {
			cur = iter.Value()
			break
		}
	}
	for _, l := range labels[1:] {
		if !cur.Exists() {
			break
		}
		cur = cur.LookupPath(cue.MakePath(cue.Str(l)))
	}
	return cur
}
