package validate

import (
	"slices"
	"sync"

	"cuelang.org/go/cue"
)

// shape is what a schema value allows, computed once per definition and
// shared by every declaration of its kind: walking it costs map lookups,
// where asking CUE (Allows, LookupPath) costs an evaluation context per
// call.
type shape struct {
	kind cue.Kind
	// closed is true for a struct that allows only its fields (and those
	// its pattern matches).
	closed bool
	// fields are the declared fields (regular, optional, required), and
	// names their sorted names, for suggestions.
	fields map[string]*shape
	names  []string
	// pattern is the value of a [string]: X constraint, if any.
	pattern *shape
	// elem is the element of a list.
	elem *shape
	// adds is true when the schema can add to a value the user wrote: a
	// regular field (not optional or required) with a concrete value, or
	// a default (other than the empty list every open list defaults to),
	// here or in any value in it.
	adds bool
}

// maxShapeDepth bounds the shape of a recursive definition.
const maxShapeDepth = 32

// schemaDef is a definition, its shape and its matcher (nil when the
// definition uses what a matcher cannot judge).
type schemaDef struct {
	value cue.Value
	shape *shape
	match matcher
}

// schemaDefs looks up every definition declarations are checked against,
// once.
func schemaDefs(schema interface{ Def(string) cue.Value }) map[string]schemaDef {
	out := map[string]schemaDef{}
	for _, k := range kinds {
		d := schema.Def(k.def)
		out[k.def] = schemaDef{d, defShape(k.def, d), defMatcher(k.def, d)}
	}
	for _, s := range singletons {
		d := schema.Def(s.def)
		out[s.def] = schemaDef{d, defShape(s.def, d), defMatcher(s.def, d)}
	}
	return out
}

// shapes holds, for this process, the shape of each definition by name.
// The schema is embedded, so a definition has the same shape in every CUE
// context it is built in; charter log builds it for many commits.
var shapes sync.Map

// defShape returns the shape of definition d, named name.
func defShape(name string, d cue.Value) *shape {
	if sh, ok := shapes.Load(name); ok {
		return sh.(*shape)
	}
	sh := shapeOf(d, 0)
	shapes.Store(name, sh)
	return sh
}

// matchers holds, for this process, the matcher of each definition by name
// (a nil matcher when there is none), for the reason shapes does.
var matchers sync.Map

// defMatcher returns the matcher of definition d, named name, or nil.
func defMatcher(name string, d cue.Value) matcher {
	if m, ok := matchers.Load(name); ok {
		m, _ := m.(matcher)
		return m
	}
	m, ok := matcherOf(d, 0)
	if !ok {
		m = nil
	}
	matchers.Store(name, m)
	return m
}

func shapeOf(s cue.Value, depth int) *shape {
	sh := &shape{kind: s.IncompleteKind()}
	if d, ok := s.Default(); ok && !(sh.kind == cue.ListKind && isEmptyList(d)) {
		sh.adds = true
	}
	if depth > maxShapeDepth {
		sh.adds = true // unknown: assume so
		return sh      // treated as open
	}
	if sh.kind&cue.StructKind != 0 {
		if it, err := s.Fields(cue.Optional(true)); err == nil {
			sh.fields = map[string]*shape{}
			for it.Next() {
				if sel := it.Selector(); sel.IsString() {
					name := sel.Unquoted()
					c := shapeOf(it.Value(), depth+1)
					sh.fields[name] = c
					sh.names = append(sh.names, name)
					// A regular field adds its value when it has one: a
					// type (min: number) only asks the user for one.
					regular := sel.ConstraintType() == 0
					sh.adds = sh.adds || c.adds || regular && it.Value().IsConcrete()
				}
			}
			slices.Sort(sh.names)
		}
		if s.Allows(cue.Str("\x00probe")) {
			// Open, or a pattern constraint that matches any name.
			if p := s.LookupPath(cue.MakePath(cue.AnyString)); p.Exists() {
				sh.pattern = shapeOf(p, depth+1)
				sh.adds = sh.adds || sh.pattern.adds
			}
		} else {
			sh.closed = true
		}
	}
	if sh.kind&cue.ListKind != 0 {
		if e := s.LookupPath(cue.MakePath(cue.AnyIndex)); e.Exists() {
			sh.elem = shapeOf(e, depth+1)
			sh.adds = sh.adds || sh.elem.adds
		}
	}
	return sh
}

func isEmptyList(v cue.Value) bool {
	n, err := v.Len().Int64()
	return err == nil && n == 0 && v.IsConcrete()
}
