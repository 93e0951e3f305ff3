package cuefmt

import (
	"encoding/json"
	"errors"
	"fmt"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/format"
)

// Encode writes a JSON-encodable object as the fields of a CUE file,
// formatted. It goes through plain JSON, so numbers are numbers (not
// json.Number strings).
func Encode(v map[string]any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	f, ok := cuecontext.New().CompileBytes(b).Syntax(cue.Concrete(true)).(*ast.StructLit)
	if !ok {
		return nil, errors.New("internal error: cannot encode the value as CUE")
	}
	out, err := format.Node(&ast.File{Decls: f.Elts})
	if err != nil {
		return nil, fmt.Errorf("internal error: formatting CUE: %w", err)
	}
	return out, nil
}
