package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
)

// Draft is the JSON Schema dialect of the generated documents.
const Draft = "https://json-schema.org/draft/2020-12/schema"

// JSONSchema returns a target's JSON Schema (draft 2020-12), indented, with
// every definition the root refers to under $defs (named without the #).
func JSONSchema(t Target) ([]byte, error) {
	v, err := Build(t)
	if err != nil {
		return nil, err
	}
	doc, err := Generate(v, t.definition())
	if err != nil {
		return nil, err
	}
	title, desc := t.title()
	doc["title"] = title
	doc["description"] = desc
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Generate returns the JSON Schema of the definition root (such as
// "#Config") of v, the value holding the definitions, as a JSON object. The
// root is inlined; every definition it refers to goes under $defs.
//
// The mapping: a required field (name!) is listed in required; an optional
// one (name?) is not; a closed struct gets additionalProperties false, a
// pattern constraint ([Name=string]: X) additionalProperties X, an open
// struct ({...}) none; a list [...X] gets items X; a disjunction of literals
// an enum, any other disjunction anyOf; int is integer, number and float
// number; bounds (>=, >, <=, <) on numbers become minimum, exclusiveMinimum,
// maximum and exclusiveMaximum; != "" minLength 1; =~ a pattern; a default
// (*x) default; doc comments descriptions. Anything else is an error.
func Generate(v cue.Value, root string) (map[string]any, error) {
	def := v.LookupPath(cue.ParsePath(root))
	if !def.Exists() {
		return nil, fmt.Errorf("internal error: schema has no definition %s", root)
	}
	g := &generator{root: v, defs: map[string]map[string]any{}}
	doc, err := g.inline(def, root)
	if err != nil {
		return nil, err
	}
	if d := doc["description"]; d == nil {
		if s := docText(def.Doc()); s != "" {
			doc["description"] = s
		}
	}
	out := map[string]any{"$schema": Draft}
	for k, x := range doc {
		out[k] = x
	}
	if len(g.defs) > 0 {
		defs := map[string]any{}
		for k, x := range g.defs {
			defs[k] = x
		}
		out["$defs"] = defs
	}
	return out, nil
}

type generator struct {
	root cue.Value
	// defs holds the definitions generated so far, by name without #; a
	// definition being generated is present (empty) to stop recursion.
	defs map[string]map[string]any
}

// value returns the schema of v. Where v refers to a definition, that is a
// $ref and the definition goes to $defs.
func (g *generator) value(v cue.Value, path string) (map[string]any, error) {
	if name, target, ok := g.reference(v); ok {
		if _, done := g.defs[name]; !done {
			g.defs[name] = map[string]any{}
			s, err := g.inline(target, "#"+name)
			if err != nil {
				return nil, err
			}
			if d := docText(target.Doc()); d != "" {
				s["description"] = d
			}
			g.defs[name] = s
		}
		return map[string]any{"$ref": "#/$defs/" + name}, nil
	}
	return g.inline(v, path)
}

// reference reports whether v is a plain reference to a top-level
// definition of the schema, and returns its name and value.
func (g *generator) reference(v cue.Value) (string, cue.Value, bool) {
	_, p := v.ReferencePath()
	sels := p.Selectors()
	if len(sels) != 1 || !sels[0].IsDefinition() {
		return "", cue.Value{}, false
	}
	target := g.root.LookupPath(p)
	if !target.Exists() {
		return "", cue.Value{}, false
	}
	return strings.TrimPrefix(sels[0].String(), "#"), target, true
}

// inline returns the schema of v itself, never a $ref to it.
func (g *generator) inline(v cue.Value, path string) (map[string]any, error) {
	if err := v.Err(); err != nil {
		return nil, fmt.Errorf("internal error: schema %s: %v", path, err)
	}
	var s map[string]any
	var err error
	switch k := v.IncompleteKind(); {
	case k == cue.StructKind:
		s, err = g.object(v, path)
	case k == cue.ListKind:
		s, err = g.array(v, path)
	default:
		s, err = g.scalar(v, path)
	}
	if err != nil {
		return nil, err
	}
	if d, ok := v.Default(); ok && d.IsConcrete() && !v.IsConcrete() && v.IncompleteKind()&(cue.StructKind|cue.ListKind) == 0 {
		var x any
		if err := d.Decode(&x); err != nil {
			return nil, fmt.Errorf("internal error: schema %s: default: %v", path, err)
		}
		s["default"] = x
	}
	return s, nil
}

// object maps a struct: fields, required fields, closedness and pattern
// constraints.
func (g *generator) object(v cue.Value, path string) (map[string]any, error) {
	s := map[string]any{"type": "object"}
	it, err := v.Fields(cue.Optional(true))
	if err != nil {
		return nil, fmt.Errorf("internal error: schema %s: %v", path, err)
	}
	props := map[string]any{}
	var required []string
	for it.Next() {
		sel := it.Selector()
		name := sel.Unquoted()
		fp := path + "." + name
		fs, err := g.value(it.Value(), fp)
		if err != nil {
			return nil, err
		}
		if d := docText(it.Value().Doc()); d != "" {
			fs["description"] = d
		}
		props[name] = fs
		if sel.ConstraintType() != cue.OptionalConstraint {
			required = append(required, name)
		}
	}
	if len(props) > 0 {
		s["properties"] = props
	}
	if len(required) > 0 {
		s["required"] = required
	}
	if !v.Allows(cue.AnyString) {
		s["additionalProperties"] = false
		return s, nil
	}
	// Open: a pattern constraint constrains every other field; plain {...}
	// constrains nothing.
	if pv := v.LookupPath(cue.MakePath(cue.AnyString)); pv.Exists() && pv.IncompleteKind() != cue.TopKind {
		ps, err := g.value(pv, path+".[string]")
		if err != nil {
			return nil, err
		}
		s["additionalProperties"] = ps
	}
	return s, nil
}

// array maps an open list [...X].
func (g *generator) array(v cue.Value, path string) (map[string]any, error) {
	s := map[string]any{"type": "array"}
	if it, err := v.List(); err == nil && it.Next() {
		// A list with fixed elements: charter's schema has none.
		return nil, fmt.Errorf("internal error: schema %s: lists with fixed elements are not supported", path)
	}
	ev := v.LookupPath(cue.MakePath(cue.AnyIndex))
	if ev.Exists() && ev.IncompleteKind() != cue.TopKind {
		es, err := g.value(ev, path+"[]")
		if err != nil {
			return nil, err
		}
		s["items"] = es
	}
	return s, nil
}

// scalar maps everything that is not a plain struct or list: basic types,
// literals, bounds, disjunctions and conjunctions.
func (g *generator) scalar(v cue.Value, path string) (map[string]any, error) {
	op, args := expr(v)
	switch op {
	case cue.OrOp:
		return g.disjunction(args, path)
	case cue.AndOp:
		s := map[string]any{}
		for _, a := range conjuncts(args) {
			if err := g.constrain(s, a, path); err != nil {
				return nil, err
			}
		}
		return s, nil
	}
	s := map[string]any{}
	if err := g.constrain(s, v, path); err != nil {
		return nil, err
	}
	return s, nil
}

// expr is v.Expr, looking through the wrapper CUE leaves when it folds a
// default into the value (*1 | >=0 & <=2 is reported as NoOp of >=0 & <=2).
func expr(v cue.Value) (cue.Op, []cue.Value) {
	op, args := v.Expr()
	for op == cue.NoOp && len(args) == 1 {
		aop, aargs := args[0].Expr()
		if aop == cue.NoOp {
			break
		}
		op, args = aop, aargs
	}
	return op, args
}

// conjuncts flattens nested conjunctions.
func conjuncts(vs []cue.Value) []cue.Value {
	var out []cue.Value
	for _, v := range vs {
		if op, args := expr(v); op == cue.AndOp && len(args) > 1 {
			out = append(out, conjuncts(args)...)
			continue
		}
		out = append(out, v)
	}
	return out
}

// disjunction maps a | b | ...: an enum when every branch is a literal, a
// list of types when every branch is a bare type, else anyOf.
func (g *generator) disjunction(args []cue.Value, path string) (map[string]any, error) {
	var enum []any
	literals := true
	for _, a := range args {
		if !a.IsConcrete() || a.IncompleteKind()&(cue.StructKind|cue.ListKind) != 0 {
			literals = false
			break
		}
		var x any
		if err := a.Decode(&x); err != nil {
			return nil, fmt.Errorf("internal error: schema %s: %v", path, err)
		}
		enum = append(enum, x)
	}
	if literals {
		s := map[string]any{"enum": enum}
		if k := args[0].IncompleteKind(); k != cue.NullKind {
			same := true
			for _, a := range args {
				same = same && a.IncompleteKind() == k
			}
			if same {
				if err := setType(s, k, path); err != nil {
					return nil, err
				}
			}
		}
		return s, nil
	}
	var branches []map[string]any
	var types []any
	bare := true
	for _, a := range args {
		b, err := g.value(a, path)
		if err != nil {
			return nil, err
		}
		branches = append(branches, b)
		if t, ok := b["type"]; ok && len(b) == 1 {
			types = append(types, t)
		} else {
			bare = false
		}
	}
	if bare {
		return map[string]any{"type": types}, nil
	}
	anyOf := make([]any, len(branches))
	for i, b := range branches {
		anyOf[i] = b
	}
	return map[string]any{"anyOf": anyOf}, nil
}

// constrain adds what one conjunct says to s.
func (g *generator) constrain(s map[string]any, v cue.Value, path string) error {
	op, args := expr(v)
	switch op {
	case cue.NoOp, cue.SelectorOp:
		if v.IsConcrete() && v.IncompleteKind()&(cue.StructKind|cue.ListKind) == 0 {
			var x any
			if err := v.Decode(&x); err != nil {
				return fmt.Errorf("internal error: schema %s: %v", path, err)
			}
			s["const"] = x
			return nil
		}
		k := v.IncompleteKind()
		if k&(cue.StructKind|cue.ListKind) != 0 && k != cue.TopKind {
			sub, err := g.value(v, path)
			if err != nil {
				return err
			}
			return merge(s, sub, path)
		}
		return setType(s, k, path)
	case cue.GreaterThanEqualOp, cue.GreaterThanOp, cue.LessThanEqualOp, cue.LessThanOp:
		if len(args) != 1 || args[0].IncompleteKind()&cue.NumberKind == 0 || !args[0].IsConcrete() {
			return fmt.Errorf("internal error: schema %s: only numeric bounds are supported, not %v", path, v)
		}
		var n any
		if err := args[0].Decode(&n); err != nil {
			return fmt.Errorf("internal error: schema %s: %v", path, err)
		}
		key := map[cue.Op]string{cue.GreaterThanEqualOp: "minimum", cue.GreaterThanOp: "exclusiveMinimum",
			cue.LessThanEqualOp: "maximum", cue.LessThanOp: "exclusiveMaximum"}[op]
		s[key] = n
		if _, ok := s["type"]; !ok {
			s["type"] = "number"
		}
		return nil
	case cue.NotEqualOp:
		if len(args) == 1 {
			if str, err := args[0].String(); err == nil && str == "" {
				s["minLength"] = 1
				s["type"] = "string"
				return nil
			}
			var x any
			if err := args[0].Decode(&x); err == nil {
				s["not"] = map[string]any{"const": x}
				return nil
			}
		}
	case cue.RegexMatchOp:
		if len(args) == 1 {
			if re, err := args[0].String(); err == nil {
				s["pattern"] = re
				s["type"] = "string"
				return nil
			}
		}
	case cue.AndOp:
		for _, a := range conjuncts(args) {
			if err := g.constrain(s, a, path); err != nil {
				return err
			}
		}
		return nil
	case cue.OrOp:
		sub, err := g.disjunction(args, path)
		if err != nil {
			return err
		}
		return merge(s, sub, path)
	}
	return fmt.Errorf("internal error: schema %s: no JSON Schema for %v (operator %v)", path, v, op)
}

// setType records a basic CUE kind as a JSON Schema type. A narrower type
// already recorded (integer within number) wins.
func setType(s map[string]any, k cue.Kind, path string) error {
	var t string
	switch k {
	case cue.TopKind:
		return nil
	case cue.StringKind:
		t = "string"
	case cue.IntKind:
		t = "integer"
	case cue.NumberKind, cue.FloatKind:
		t = "number"
	case cue.BoolKind:
		t = "boolean"
	case cue.NullKind:
		t = "null"
	default:
		return fmt.Errorf("internal error: schema %s: no JSON Schema type for kind %v", path, k)
	}
	if old, ok := s["type"]; ok && old != t {
		if old == "integer" && t == "number" {
			return nil
		}
		if !(old == "number" && t == "integer") {
			return fmt.Errorf("internal error: schema %s: conflicting types %v and %s", path, old, t)
		}
	}
	s["type"] = t
	return nil
}

// merge adds the keywords of sub to s, which must not already hold them
// with a different value.
func merge(s, sub map[string]any, path string) error {
	for k, x := range sub {
		if old, ok := s[k]; ok {
			a, _ := json.Marshal(old)
			b, _ := json.Marshal(x)
			if !bytes.Equal(a, b) {
				if k == "type" {
					if err := setType(s, kindOf(x), path); err == nil {
						continue
					}
				}
				return fmt.Errorf("internal error: schema %s: cannot combine %s %s and %s", path, k, a, b)
			}
		}
		s[k] = x
	}
	return nil
}

func kindOf(t any) cue.Kind {
	switch t {
	case "integer":
		return cue.IntKind
	case "number":
		return cue.NumberKind
	}
	return cue.BottomKind
}

// docText joins doc comments into one paragraph per comment group.
func docText(groups []*ast.CommentGroup) string {
	var parts []string
	for _, c := range groups {
		if t := strings.TrimSpace(c.Text()); t != "" {
			parts = append(parts, strings.Join(strings.Fields(t), " "))
		}
	}
	return strings.Join(parts, "\n\n")
}
