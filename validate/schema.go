package validate

import (
	"fmt"
	"slices"
	"strings"

	"cuelang.org/go/cue"
	cueerrors "cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/token"
)

// check validates one declaration (def & std & user) and reports what is
// wrong in plain words. It reports whether the declaration is valid.
func (v *validator) check(path Path, def, std, user cue.Value) bool {
	before := v.count()
	if user.Exists() {
		v.unknownFields(path, user, def)
	}
	val := def
	if std.Exists() {
		val = val.Unify(std)
	}
	if user.Exists() {
		val = val.Unify(user)
	}
	if err := val.Validate(cue.Concrete(true)); err != nil {
		v.schemaErrors(path, def, std, user, err)
	}
	return v.count() == before
}

func (v *validator) count() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return len(v.diags)
}

// unknownFields walks the user's value beside the schema and reports every
// field the schema does not allow, with the closest allowed name.
func (v *validator) unknownFields(path Path, user, schema cue.Value) {
	switch user.IncompleteKind() {
	case cue.StructKind:
		if schema.IncompleteKind()&cue.StructKind == 0 || schema.Allows(cue.Str("\x00probe")) {
			return // not a struct in the schema (a type error), or open
		}
		it, err := user.Fields()
		if err != nil {
			return
		}
		for it.Next() {
			label := it.Selector().Unquoted()
			if !schema.Allows(cue.Str(label)) {
				v.reportAt("unknown-field", path.Child(label), userPos(it.Value()),
					"unknown field %q%s", label, didYouMean(label, fieldNames(schema), "fields"))
				continue
			}
			v.unknownFields(path.Child(label), it.Value(), schemaChild(schema, label))
		}
	case cue.ListKind:
		elem := schema.LookupPath(cue.MakePath(cue.AnyIndex))
		if !elem.Exists() {
			return
		}
		it, err := user.List()
		if err != nil {
			return
		}
		for i := 0; it.Next(); i++ {
			v.unknownFields(path.Child(Index(i)), it.Value(), elem)
		}
	}
}

// fieldNames lists the regular, optional and required fields a schema
// struct declares.
func fieldNames(schema cue.Value) []string {
	it, err := schema.Fields(cue.Optional(true))
	if err != nil {
		return nil
	}
	var out []string
	for it.Next() {
		sel := it.Selector()
		if sel.IsString() {
			out = append(out, sel.Unquoted())
		}
	}
	return out
}

// schemaErrors groups CUE's errors by path and says each once.
func (v *validator) schemaErrors(path Path, def, std, user cue.Value, err error) {
	type group struct {
		rel  Path
		errs []cueerrors.Error
	}
	var groups []*group
	byPath := map[string]*group{}
	for _, e := range cueerrors.Errors(err) {
		rel := relPath(e.Path(), user)
		key := rel.String()
		g := byPath[key]
		if g == nil {
			g = &group{rel: rel}
			byPath[key] = g
			groups = append(groups, g)
		}
		g.errs = append(g.errs, e)
	}
	for _, g := range groups {
		full := path.Child(g.rel...)
		// Unknown fields are found by unknownFields, with suggestions.
		if all(g.errs, func(e cueerrors.Error) bool { return strings.Contains(msgOf(e), "not allowed") }) {
			continue
		}
		pos := token.NoPos
		for _, e := range g.errs {
			if p := userPosOfErr(e); p.IsValid() {
				pos = p
				break
			}
		}
		if !pos.IsValid() {
			pos = posOf(v.repo.Value, full)
		}
		v.reportAt("schema", full, pos, "%s", v.explain(g.rel, g.errs, def, std, user))
	}
}

// explain turns one path's CUE errors into one sentence.
func (v *validator) explain(rel Path, errs []cueerrors.Error, def, std, user cue.Value) string {
	schema := schemaAt(def, rel)
	got := user.LookupPath(cue.MakePath(rel.selectors()...))
	for _, e := range errs {
		m := msgOf(e)
		switch {
		case strings.Contains(m, "empty disjunction") || strings.HasPrefix(m, "conflicting values") && enumOptions(schema) != nil:
			if opts := enumOptions(schema); opts != nil {
				return fmt.Sprintf("%s is not an option; valid options: %s", show(got), strings.Join(opts, ", "))
			}
		case strings.Contains(m, "required but not present"):
			return fmt.Sprintf("required field is missing; add %s: %s", rel[len(rel)-1], describe(schema))
		}
	}
	e := errs[0]
	m := msgOf(e)
	if fromStdlib(e) {
		stdVal := std.LookupPath(cue.MakePath(rel.selectors()...))
		return fmt.Sprintf("conflicts with the standard library, which sets it to %s; built-in declarations cannot be changed: declare a new one (or extend it) instead", show(stdVal))
	}
	switch {
	case strings.HasPrefix(m, "incomplete value"):
		return fmt.Sprintf("needs a concrete value: want %s", describe(schema))
	case strings.HasPrefix(m, "invalid value") || strings.Contains(m, "out of bound"):
		return fmt.Sprintf("%s is out of range: want %s", show(got), describe(schema))
	case strings.Contains(m, "mismatched types"):
		return fmt.Sprintf("%s has the wrong type: want %s", show(got), describe(schema))
	case strings.HasPrefix(m, "conflicting values") && schema.Exists():
		return fmt.Sprintf("%s is not allowed here: want %s", show(got), describe(schema))
	}
	return m
}

// relPath drops the definition name CUE puts first in paths, and marks
// list indexes by walking the user's value.
func relPath(p []string, user cue.Value) Path {
	if len(p) > 0 && strings.HasPrefix(p[0], "#") {
		p = p[1:]
	}
	out := make(Path, len(p))
	cur := user
	for i, l := range p {
		l = strings.Trim(l, `"`)
		if cur.Exists() && cur.IncompleteKind() == cue.ListKind && isIndex(l) {
			l = "[" + l + "]"
		}
		out[i] = l
		if cur.Exists() {
			cur = cur.LookupPath(cue.MakePath(Path{l}.selectors()...))
		}
	}
	return out
}

func msgOf(e cueerrors.Error) string {
	f, a := e.Msg()
	return fmt.Sprintf(f, a...)
}

// fromStdlib reports whether an error is a conflict with the standard
// library's own value.
func fromStdlib(e cueerrors.Error) bool {
	if !strings.HasPrefix(msgOf(e), "conflicting values") {
		return false
	}
	return slices.ContainsFunc(e.InputPositions(), func(p token.Pos) bool {
		return strings.Contains(p.Filename(), "/stdlib/")
	})
}

func userPosOfErr(e cueerrors.Error) token.Pos {
	for _, p := range e.InputPositions() {
		if p.IsValid() && !isEmbedded(p) {
			return p
		}
	}
	if p := e.Position(); p.IsValid() && !isEmbedded(p) {
		return p
	}
	return token.NoPos
}

func all[T any](s []T, f func(T) bool) bool {
	for _, x := range s {
		if !f(x) {
			return false
		}
	}
	return true
}
