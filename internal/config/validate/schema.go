package validate

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	cueerrors "cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/token"
	"github.com/charter-dev/charter/internal/config/fieldpath"
	"github.com/charter-dev/charter/internal/config/load"
)

// check validates one declaration (def & std & user) and reports what is
// wrong in plain words. It returns the unified value, and whether it is
// valid.
//
// Unknown fields: CUE reports every field a closed definition does not
// allow, unless another error in the same struct masks it (cue-lang/cue
// #2869). So a declaration CUE finds valid has none, and only one with an
// error is walked, to find the masked ones and to name the closest valid
// field for each.
func (v *validator) check(path Path, defName string, std, user cue.Value) (cue.Value, bool) {
	def := v.defs[defName]
	val := def.value
	if std.Exists() {
		val = val.Unify(std)
	}
	if user.Exists() {
		val = val.Unify(user)
	}
	err := val.Validate(cue.Concrete(true))
	if err == nil {
		return val, true
	}
	found := map[string]bool{}
	if user.Exists() {
		v.unknownFields(path, user, def.shape, found)
	}
	v.schemaErrors(path, def.value, std, user, err, found)
	if !strings.Contains(err.Error(), "required but not present") {
		// CUE leaves out a missing required field when the same
		// declaration has another error: find them, so that one run
		// says every mistake (a wrong type and a missing name alike).
		v.missingRequired(path, def.value, std, user, nil, found)
	}
	return val, false
}

// missingRequired reports every required field of the schema that neither
// the user's value nor the standard library's gives, at rel and below, in
// the structs and list elements the user's value has. A field whose name
// an unknown field there misspells (found) was reported with it.
func (v *validator) missingRequired(path Path, def, std, user cue.Value, rel Path, found map[string]bool) {
	schema := schemaAt(def, rel)
	if op, _ := schema.Expr(); op == cue.OrOp || schema.IncompleteKind() != cue.StructKind {
		return // a disjunction's required fields depend on the branch
	}
	sels := rel.Selectors()
	u := user.LookupPath(cue.MakePath(sels...))
	if !u.Exists() || u.IncompleteKind() != cue.StructKind {
		return
	}
	s := std.LookupPath(cue.MakePath(sels...))
	it, err := schema.Fields(cue.Optional(true))
	if err != nil {
		return
	}
	for it.Next() {
		name := it.Selector().Unquoted()
		child := cue.MakePath(cue.Str(name))
		if it.FieldType()&cue.RequiredConstraint == 0 || u.LookupPath(child).Exists() || s.LookupPath(child).Exists() {
			continue
		}
		if misspelt(path.Child(rel...).String(), name, found) {
			continue
		}
		full := path.Child(append(slices.Clone(rel), name)...)
		v.reportAt("schema", full, posOf(v.repo.Value, path.Child(rel...)), "required field is missing; add %s: %s", name, describe(it.Value()))
	}
	fields, err := u.Fields()
	if err != nil {
		return
	}
	for fields.Next() {
		name := fields.Selector().Unquoted()
		sub := append(slices.Clone(rel), name)
		switch fields.Value().IncompleteKind() {
		case cue.StructKind:
			v.missingRequired(path, def, std, user, sub, found)
		case cue.ListKind:
			elems, err := fields.Value().List()
			if err != nil {
				continue
			}
			for i := 0; elems.Next(); i++ {
				v.missingRequired(path, def, std, user, append(slices.Clone(sub), "["+strconv.Itoa(i)+"]"), found)
			}
		}
	}
}

// misspelt says whether an unknown field of the struct at parent (a key of
// found) is a misspelling of name.
func misspelt(parent, name string, found map[string]bool) bool {
	for k := range found {
		label, ok := strings.CutPrefix(k, parent+".")
		if !ok || strings.Contains(label, ".") {
			continue
		}
		if _, ok := closest(label, []string{name}); ok {
			return true
		}
	}
	return false
}

// unknownFields walks the user's value beside the schema's shape and
// reports every field the schema does not allow, with the closest allowed
// name, adding its path to found. It walks values that hold an error too
// (a conflict deeper down makes CUE report the whole struct as an error),
// so a conflict cannot hide an unknown field.
func (v *validator) unknownFields(path Path, user cue.Value, sh *shape, found map[string]bool) {
	if sh == nil {
		return
	}
	switch k, kids := children(user); k {
	case cue.StructKind:
		if sh.kind&cue.StructKind == 0 {
			return // a type error, which CUE reports
		}
		for _, c := range kids {
			child, ok := sh.fields[c.label]
			switch {
			case ok:
			case sh.pattern != nil:
				child = sh.pattern
			case sh.closed:
				p := path.Child(c.label)
				fix, _ := closest(c.label, sh.names)
				v.reportFix("unknown-field", p, labelPos(c.value), fix,
					"unknown field %q%s", c.label, didYouMean(c.label, sh.names, "fields"))
				found[p.String()] = true
				continue
			default:
				continue // an open struct: anything goes
			}
			v.unknownFields(path.Child(c.label), c.value, child, found)
		}
	case cue.ListKind:
		for _, c := range kids {
			v.unknownFields(path.Child(c.label), c.value, sh.elem, found)
		}
	}
}

// child is a field of a struct (label is its name) or an element of a list
// (label is Index(i)).
type child struct {
	label string
	value cue.Value
}

// children returns whether x is a struct or a list, and its regular fields
// or elements. A value that holds an error somewhere inside has the bottom
// kind; its fields are listed all the same. Any other kind has no children.
func children(x cue.Value) (cue.Kind, []child) {
	k := x.IncompleteKind()
	if k == cue.ListKind {
		it, err := x.List()
		if err != nil {
			return k, nil
		}
		var out []child
		for i := 0; it.Next(); i++ {
			out = append(out, child{Index(i), it.Value()})
		}
		return k, out
	}
	if k != cue.StructKind && k != cue.BottomKind {
		return k, nil
	}
	it, err := x.Fields()
	if err != nil {
		return k, nil
	}
	var out []child
	for it.Next() {
		sel := it.Selector()
		switch {
		case sel.IsString():
			k = cue.StructKind
			out = append(out, child{sel.Unquoted(), it.Value()})
		case sel.Type() == cue.IndexLabel:
			k = cue.ListKind
			out = append(out, child{Index(sel.Index()), it.Value()})
		}
	}
	return k, out
}

// schemaErrors groups CUE's errors by path and says each once.
//
// A "field not allowed" error at a path unknownFields reported (found) is
// left out: it said it better. Any other is reported as CUE says it, so
// that no error is lost.
func (v *validator) schemaErrors(path Path, def, std, user cue.Value, err error, found map[string]bool) {
	type group struct {
		rel  Path
		errs []cueerrors.Error
	}
	var groups []*group
	byPath := map[string]*group{}
	for _, e := range cueerrors.Errors(err) {
		rel := relPath(e.Path())
		// An error the user's value carried in from the root (a conflict
		// through a reference) has the whole path: one mistake, one
		// group, at the field's path (it was reported twice, once at
		// agents.a.agents.a...).
		if len(rel) > len(path) && hasPrefix(rel, path) {
			rel = rel[len(path):]
		}
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
		if found[full.String()] && all(g.errs, func(e cueerrors.Error) bool { return strings.Contains(msgOf(e), "not allowed") }) {
			continue
		}
		if msg, at, ok := v.typeConflict(schemaAt(def, g.rel), user.LookupPath(cue.MakePath(g.rel.Selectors()...)), g.errs); ok {
			v.reportAt("schema", full, at, "%s", msg)
			continue
		}
		if v.listLengths(full, g.errs) {
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
		v.reportAt("schema", full, pos, "%s", v.explain(path[0], path[len(path)-1], g.rel, g.errs, def, std, user))
		if path[0] == "runtimes" {
			v.atEveryClaim(full, pos, g.errs)
		}
	}
}

// atEveryClaim reports a runtime's tool name that two places give two
// tools at the other place too: each of them is half of the mistake, and
// an author reading either file should see it.
func (v *validator) atEveryClaim(full Path, reported token.Pos, errs []cueerrors.Error) {
	for _, e := range errs {
		if !strings.HasPrefix(msgOf(e), "conflicting values") || !fromUsers(e) {
			continue
		}
		for _, p := range e.InputPositions() {
			if p.IsValid() && p != reported && !load.IsEmbedded(p.Filename()) {
				v.reportAt("schema", full, p, "%s", v.conflictMessage(e, p))
			}
		}
		return
	}
}

// explain turns one path's CUE errors into one sentence. kind is the
// top-level field of the declaration (agents, profiles, ...).
func (v *validator) explain(kind, name string, rel Path, errs []cueerrors.Error, def, std, user cue.Value) string {
	schema := schemaAt(def, rel)
	got := user.LookupPath(cue.MakePath(rel.Selectors()...))
	// A conflict with the standard library comes first: as an enum
	// failure it would list the built-in value among the valid options.
	if slices.ContainsFunc(errs, fromStdlib) {
		stdVal := std.LookupPath(cue.MakePath(rel.Selectors()...))
		return fmt.Sprintf("conflicts with the standard library, which sets it to %s: %s", show(stdVal), builtinHint(kind, name))
	}
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
	m := msgOf(errs[0])
	switch {
	case strings.HasPrefix(m, "incomplete value"):
		return fmt.Sprintf("needs a concrete value: want %s", describe(schema))
	case strings.HasPrefix(m, "invalid value") && strings.Contains(m, "out of bound =~"):
		return fmt.Sprintf("%s does not have the form wanted: want %s", show(got), describe(schema))
	case strings.HasPrefix(m, "invalid value") || strings.Contains(m, "out of bound"):
		return fmt.Sprintf("%s is out of range: want %s", show(got), describe(schema))
	case strings.Contains(m, "mismatched types") && len(rel) == 0:
		return fmt.Sprintf("%s has the wrong type: want %s (a struct of fields)", show(got), article(noun(kind)))
	case strings.Contains(m, "mismatched types"):
		return fmt.Sprintf("%s has the wrong type: want %s", show(got), describe(schema))
	case strings.HasPrefix(m, "conflicting values") && fromUsers(errs[0]):
		return v.conflictMessage(errs[0], userPosOfErr(errs[0]))
	case strings.HasPrefix(m, "conflicting values") && schema.Exists():
		return fmt.Sprintf("%s is not allowed here: want %s", show(got), describe(schema))
	}
	return m
}

// noun returns what a declaration of a top-level field is called.
func noun(field string) string {
	for _, k := range kinds {
		if k.field == field {
			return k.noun
		}
	}
	return "value"
}

// builtinHint says what to do instead of changing a built-in declaration.
func builtinHint(kind, name string) string {
	switch kind {
	case "categories":
		return "built-in categories cannot be changed; add options, settings or categories of your own instead"
	case "profiles":
		return fmt.Sprintf("built-in profiles cannot be changed; declare a profile of your own with extends: %q and change the rule there", name)
	case "agentTypes":
		return "the built-in agent type cannot be changed; declare an agent type of your own instead"
	case "presets":
		return "built-in presets cannot be changed; declare a preset of your own instead"
	case "behaviorTypes":
		return "built-in behavior types cannot be changed; declare a behavior type of your own instead"
	}
	return "built-in declarations cannot be changed; declare one of your own instead"
}

// fromUsers reports whether every position of a conflict lies in a user
// file: two user files (or two places in one) set different values.
func fromUsers(e cueerrors.Error) bool {
	n := 0
	for _, p := range e.InputPositions() {
		if p.IsValid() {
			if isEmbedded(p) {
				return false
			}
			n++
		}
	}
	return n >= 2
}

// conflictMessage says that two user values conflict, naming the places
// of the others than at (where the diagnostic is).
func (v *validator) conflictMessage(e cueerrors.Error, at token.Pos) string {
	var where []string
	for _, p := range e.InputPositions() {
		if p.IsValid() && p != at {
			where = append(where, v.where(p))
		}
	}
	return fmt.Sprintf("%s (the other is set at %s); a field has one value: keep one of them", msgOf(e), strings.Join(where, ", "))
}

// where formats a position of a user file as file:line:col, the column in
// characters as every diagnostic's.
func (v *validator) where(p token.Pos) string {
	return fmt.Sprintf("%s:%d:%d", p.Filename(), p.Line(), v.repo.Column(p))
}

// relPath drops the definition name CUE puts first in paths.
func relPath(p []string) Path {
	if len(p) > 0 && strings.HasPrefix(p[0], "#") {
		p = p[1:]
	}
	return fieldpath.FromCUE(p)
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
		return load.IsStdlib(p.Filename())
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

// listLengths reports a list written in two places (two files, or a file
// and a type) at both, which CUE calls "incompatible list lengths" at one:
// lists unify item by item, so they do not append. It returns false when
// errs is no such conflict of lists the user wrote.
func (v *validator) listLengths(full Path, errs []cueerrors.Error) bool {
	for _, e := range errs {
		if !strings.HasPrefix(msgOf(e), "incompatible list lengths") {
			continue
		}
		type list struct {
			pos token.Pos
			n   int
		}
		// CUE gives one place, or none: the lists are found in the
		// user's files, at the field's path.
		var lists []list
		for _, l := range v.listsAt(full) {
			lists = append(lists, list{l.Lbrack, len(l.Elts)})
		}
		if len(lists) != 2 {
			return false
		}
		items := func(n int) string {
			if n == 1 {
				return "1 item"
			}
			return fmt.Sprintf("%d items", n)
		}
		for i, l := range lists {
			other := lists[1-i]
			v.reportAt("schema", full, l.pos, "this list (%s) and the one at %s (%s) are one list written in two places: CUE unifies lists item by item, so lists do not append across files; write the whole list in one place",
				items(l.n), v.where(other.pos), items(other.n))
		}
		return true
	}
	return false
}

// listsAt returns the list literals the user's files give the field at
// path, in file order.
func (v *validator) listsAt(path Path) []*ast.ListLit {
	var out []*ast.ListLit
	var walk func(n ast.Node, depth int)
	walk = func(n ast.Node, depth int) {
		switch n := n.(type) {
		case *ast.File:
			for _, d := range n.Decls {
				walk(d, depth)
			}
		case *ast.StructLit:
			for _, e := range n.Elts {
				walk(e, depth)
			}
		case *ast.Field:
			name, _, err := ast.LabelName(n.Label)
			if err != nil || depth >= len(path) || name != path[depth] {
				return
			}
			if depth == len(path)-1 {
				if l, ok := n.Value.(*ast.ListLit); ok {
					out = append(out, l)
				}
				return
			}
			walk(n.Value, depth+1)
		}
	}
	for _, f := range v.repo.Files {
		walk(f.Syntax, 0)
	}
	return out
}
