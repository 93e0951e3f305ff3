package load

import (
	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
)

// Loader loads one repository after another into one CUE context, so that
// the schema and standard library are built once for all of them rather
// than once per Load: history commands load a configuration per commit,
// and building the schema cost more than evaluating a small one.
//
// A CUE context frees nothing while it lives, so a Loader starts a new one
// once maxLoaderFiles user files were loaded into the current one. The
// repositories it returns stay valid. A Loader is not safe for concurrent
// use; a nil *Loader makes a new context for every Load, as the package's
// Load does.
type Loader struct {
	ctx    *cue.Context
	schema *Schema
	files  int // user files loaded into ctx
}

// maxLoaderFiles bounds the user files a Loader loads into one context.
const maxLoaderFiles = 512

// context returns the context and schema to load n more user files into.
func (l *Loader) context(n int) (*cue.Context, *Schema, error) {
	if l == nil || l.ctx == nil || l.files+n > maxLoaderFiles {
		ctx := cuecontext.New()
		schema, err := buildSchema(ctx)
		if err != nil || l == nil {
			return ctx, schema, err
		}
		l.ctx, l.schema, l.files = ctx, schema, 0
	}
	l.files += n
	return l.ctx, l.schema, nil
}
