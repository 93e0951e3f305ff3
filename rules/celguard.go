package rules

import (
	"strings"

	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
	"cel.dev/cel-go/interpreter"
)

// maxCELResult bounds the result of the functions guardAllocations
// watches: bytes of a string, items of a list.
const (
	maxCELResultBytes = 4 * MaxStringBytes
	maxCELResultItems = 1 << 20
)

// guardAllocations replaces the calls of the functions whose result can
// outgrow their input many times over (s.replace("", s) is quadratic,
// lists.range(n) is as long as n says) by a node that computes the size of
// the result first and errors when it is past the limits: CEL's cost
// tracker counts a result only after it has been made, which may be after
// the process ran out of memory. The node computes the result as the
// strings and lists extensions do.
func guardAllocations(i interpreter.InterpretableV2) (interpreter.InterpretableV2, error) {
	call, ok := i.(interpreter.InterpretableCall)
	if !ok {
		return i, nil
	}
	var f func(args []ref.Val) ref.Val
	switch call.OverloadID() {
	case "string_replace_string_string", "string_replace_string_string_int":
		f = guardedReplace
	case "string_split_string", "string_split_string_int":
		f = guardedSplit
	case "lists_range":
		f = guardedRange
	case "list_join", "list_join_string":
		f = guardedJoin
	case "list_flatten", "list_flatten_int":
		f = guardedFlatten
	default:
		return i, nil
	}
	return &guardedCall{InterpretableCall: call, f: f}, nil
}

// guardedCall evaluates its arguments once and calls f with them.
type guardedCall struct {
	interpreter.InterpretableCall
	f func(args []ref.Val) ref.Val
}

func (g *guardedCall) Exec(frame *interpreter.ExecutionFrame) ref.Val {
	args := g.Args()
	vals := make([]ref.Val, len(args))
	for k, a := range args {
		v := a.Exec(frame)
		if types.IsUnknownOrError(v) {
			return v
		}
		vals[k] = v
	}
	return g.f(vals)
}

func (g *guardedCall) Eval(act interpreter.Activation) ref.Val {
	args := g.Args()
	vals := make([]ref.Val, len(args))
	for k, a := range args {
		v := a.Eval(act)
		if types.IsUnknownOrError(v) {
			return v
		}
		vals[k] = v
	}
	return g.f(vals)
}

func strArgs(args []ref.Val, n int) ([]string, bool) {
	out := make([]string, n)
	for k := range n {
		s, ok := args[k].(types.String)
		if !ok {
			return nil, false
		}
		out[k] = string(s)
	}
	return out, true
}

func intArg(v ref.Val) (int64, bool) {
	n, ok := v.(types.Int)
	return int64(n), ok
}

// guardedReplace is s.replace(old, new[, n]).
func guardedReplace(args []ref.Val) ref.Val {
	ss, ok := strArgs(args, 3)
	if !ok {
		return types.NewErr("replace: want strings")
	}
	s, old, repl := ss[0], ss[1], ss[2]
	n := int64(-1)
	if len(args) == 4 {
		if n, ok = intArg(args[3]); !ok {
			return types.NewErr("replace: want an int count")
		}
	}
	count := int64(strings.Count(s, old))
	if n >= 0 && n < count {
		count = n
	}
	if size := int64(len(s)) + count*(int64(len(repl))-int64(len(old))); size > maxCELResultBytes {
		return types.NewErr("replace would make a string of %d bytes, more than the %d an expression may", size, maxCELResultBytes)
	}
	return types.String(strings.Replace(s, old, repl, int(n)))
}

// guardedSplit is s.split(sep[, n]).
func guardedSplit(args []ref.Val) ref.Val {
	ss, ok := strArgs(args, 2)
	if !ok {
		return types.NewErr("split: want strings")
	}
	s, sep := ss[0], ss[1]
	n := int64(-1)
	if len(args) == 3 {
		if n, ok = intArg(args[2]); !ok {
			return types.NewErr("split: want an int count")
		}
	}
	parts := int64(strings.Count(s, sep)) + 1
	if n >= 0 && n < parts {
		parts = n
	}
	if parts > maxCELResultItems {
		return types.NewErr("split would make a list of %d strings, more than the %d an expression may", parts, maxCELResultItems)
	}
	var out []string
	switch {
	case n == 0:
		out = []string{}
	default:
		out = strings.SplitN(s, sep, int(n))
	}
	return types.DefaultTypeAdapter.NativeToValue(out)
}

// guardedRange is lists.range(n).
func guardedRange(args []ref.Val) ref.Val {
	n, ok := intArg(args[0])
	if !ok {
		return types.NewErr("lists.range: want an int")
	}
	if n > maxCELResultItems {
		return types.NewErr("lists.range(%d) would make a list of more than the %d items an expression may", n, maxCELResultItems)
	}
	out := make([]ref.Val, 0, max(n, 0))
	for k := range max(n, 0) {
		out = append(out, types.Int(k))
	}
	return types.DefaultTypeAdapter.NativeToValue(out)
}

// guardedJoin is l.join([sep]).
func guardedJoin(args []ref.Val) ref.Val {
	l, ok := args[0].(traits.Lister)
	if !ok {
		return types.NewErr("join: want a list")
	}
	sep := ""
	if len(args) == 2 {
		s, ok := args[1].(types.String)
		if !ok {
			return types.NewErr("join: want a string separator")
		}
		sep = string(s)
	}
	n, _ := l.Size().(types.Int)
	if n > maxCELResultItems {
		return types.NewErr("join of a list of %d strings, more than the %d an expression may", n, maxCELResultItems)
	}
	parts := make([]string, 0, n)
	size := int64(0)
	for it := l.Iterator(); it.HasNext() == types.True; {
		s, ok := it.Next().(types.String)
		if !ok {
			return types.NewErr("join: want a list of strings")
		}
		if size += int64(len(s)) + int64(len(sep)); size > maxCELResultBytes {
			return types.NewErr("join would make a string of more than the %d bytes an expression may", maxCELResultBytes)
		}
		parts = append(parts, string(s))
	}
	return types.String(strings.Join(parts, sep))
}

// guardedFlatten is l.flatten([depth]). A list may hold the same list
// many times (l.map(x, l)), so the result is counted first, and so are
// the lists visited (l.map(x, l.map(y, [])).flatten(2) makes nothing but
// visits |l|² lists).
func guardedFlatten(args []ref.Val) ref.Val {
	l, ok := args[0].(traits.Lister)
	if !ok {
		return types.NewErr("flatten: want a list")
	}
	depth := int64(1)
	if len(args) == 2 {
		if depth, ok = intArg(args[1]); !ok {
			return types.NewErr("flatten: want an int depth")
		}
	}
	if depth < 0 {
		return types.NewErr("level must be non-negative")
	}
	steps := 0
	if !flattenInto(nil, l, depth, &steps) {
		return types.NewErr("flatten would make a list of more than the %d items an expression may", maxCELResultItems)
	}
	out := make([]ref.Val, 0, steps)
	flattenInto(&out, l, depth, new(int))
	return types.DefaultTypeAdapter.NativeToValue(out)
}

// flattenInto appends the items of l flattened depth levels to *dst (nil:
// only counts them), counting each item it looks at in *steps; false when
// that passes maxCELResultItems.
func flattenInto(dst *[]ref.Val, l traits.Lister, depth int64, steps *int) bool {
	n, _ := l.Size().(types.Int)
	for i := types.Int(0); i < n; i++ {
		if *steps++; *steps > maxCELResultItems {
			return false
		}
		v := l.Get(i)
		if inner, ok := v.(traits.Lister); ok && depth > 0 {
			if !flattenInto(dst, inner, depth-1, steps) {
				return false
			}
			continue
		}
		if dst != nil {
			*dst = append(*dst, v)
		}
	}
	return true
}

// resultSizeCost is the cost of a call that makes a large string or
// bytes: one unit per ten bytes of its result and of its string
// arguments. CEL counts a concatenation or a conversion as one step
// whatever its size, so that copies made over and over in a
// comprehension (s + s, bytes(s)) ran past memory under the cost limit.
type resultSizeCost struct{}

func (resultSizeCost) CallCost(function, overloadID string, args []ref.Val, result ref.Val) *uint64 {
	var n int
	switch r := result.(type) {
	case types.String:
		n = len(r)
	case types.Bytes:
		n = len(r)
	default:
		return nil
	}
	if n < 1<<10 {
		return nil // CEL's own cost
	}
	for _, a := range args {
		switch a := a.(type) {
		case types.String:
			n += len(a)
		case types.Bytes:
			n += len(a)
		}
	}
	c := uint64(n/10 + 1)
	return &c
}
