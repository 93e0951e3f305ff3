package load

import (
	"sync"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/parser"
	"fmt"
	"io/fs"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/build"

	cuefiles "github.com/charter-dev/charter/cue"
)

// embeddedPrefix starts the file name of every embedded schema and standard
// library file in positions, so they are never mistaken for user files.
const embeddedPrefix = "<charter>/"

// IsEmbedded reports whether a position's file name is an embedded file.
func IsEmbedded(filename string) bool { return strings.HasPrefix(filename, embeddedPrefix) }

// IsStdlib reports whether a file name is one of the embedded standard
// library's (not the schema's, and never a user's, whatever its folders).
func IsStdlib(filename string) bool { return strings.HasPrefix(filename, embeddedPrefix+"stdlib/") }

// Schema is the embedded schema and standard library.
type Schema struct {
	// Defs holds the schema's definitions (#Config, #Agent, ...).
	Defs cue.Value
	// Stdlib is the standard library's value.
	Stdlib cue.Value
	// derived holds values other packages compute from the schema.
	derived sync.Map
}

// Derived returns the value SetDerived stored under key, if any.
func (s *Schema) Derived(key any) (any, bool) { return s.derived.Load(key) }

// SetDerived stores v under key: a value computed from the schema alone,
// which every repository loaded with it (by one Loader) may share. key
// should be of a type of the caller's own, as for context.WithValue.
func (s *Schema) SetDerived(key, v any) { s.derived.Store(key, v) }

// Def returns the definition of the given name, such as "#Agent".
func (s *Schema) Def(name string) cue.Value {
	return s.Defs.LookupPath(cue.MakePath(cue.Def(name)))
}

func buildSchema(ctx *cue.Context) (*Schema, error) {
	defs, err := buildEmbedded(ctx, "schema")
	if err != nil {
		return nil, err
	}
	std, err := buildEmbedded(ctx, "stdlib")
	if err != nil {
		return nil, err
	}
	return &Schema{Defs: defs, Stdlib: std}, nil
}

// embeddedSyntax parses the embedded files once per process: history
// commands build the schema for every commit they evaluate.
var embeddedSyntax = sync.OnceValues(func() (map[string][]*ast.File, error) {
	out := map[string][]*ast.File{}
	for _, dir := range []string{"schema", "stdlib"} {
		entries, err := fs.ReadDir(cuefiles.FS, dir)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			p := dir + "/" + e.Name()
			src, err := fs.ReadFile(cuefiles.FS, p)
			if err != nil {
				return nil, err
			}
			f, err := parser.ParseFile(embeddedPrefix+p, src, parser.ParseComments)
			if err != nil {
				return nil, fmt.Errorf("internal error: embedded %s: %w", p, err)
			}
			out[dir] = append(out[dir], f)
		}
	}
	return out, nil
})

// embeddedMu serializes builds from the shared syntax of embeddedSyntax:
// adding a file to an instance resolves its identifiers in place
// (astutil.Resolve), so two builds at once race on the same nodes.
var embeddedMu sync.Mutex

func buildEmbedded(ctx *cue.Context, dir string) (cue.Value, error) {
	embeddedMu.Lock()
	defer embeddedMu.Unlock()
	files, err := embeddedSyntax()
	if err != nil {
		return cue.Value{}, err
	}
	inst := build.NewContext().NewInstance("", nil)
	for _, f := range files[dir] {
		if err := inst.AddSyntax(f); err != nil {
			return cue.Value{}, fmt.Errorf("internal error: embedded %s: %w", f.Filename, err)
		}
	}
	v := ctx.BuildInstance(inst)
	if err := v.Err(); err != nil {
		return cue.Value{}, fmt.Errorf("internal error: embedded %s: %w", dir, err)
	}
	return v, nil
}

// Whole returns the repository's whole value: the standard library and the
// user's files unified, which `charter show --repo` prints and the
// repository JSON Schema (charter schema --for repo) describes. `cue
// export` of the user's files alone leaves the standard library out.
func (r *Repo) Whole() cue.Value { return r.Schema.Stdlib.Unify(r.Value) }
