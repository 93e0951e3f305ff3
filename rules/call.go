package rules

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Call is one tool call an agent makes.
type Call struct {
	// Tool is the tool's name (Edit, Bash, read_file, ...).
	Tool string `json:"tool"`
	// Args are the call's arguments as decoded from JSON: maps with string
	// keys, lists, strings, numbers, booleans and nil.
	Args map[string]any `json:"args,omitempty"`
	// Result is what the tool returned; nil before the call ran.
	Result any `json:"result,omitempty"`
	// ID is the runtime's id for the call (Claude Code's tool_use_id), when
	// it has one: it pairs a call's phase Post with its phase Pre (an
	// approval with the ask). It is not part of the call's arguments and
	// does not count in its fingerprint.
	ID string `json:"id,omitempty"`
}

// Limits on what the engine judges, so that a huge or deeply nested tool
// input costs bounded time and memory. A call whose arguments go past a
// limit is denied in phase Pre (fail closed), never judged on a part of
// them; a result past a limit is cut (phase Post decides nothing).
const (
	// MaxStringBytes is the longest string (argument, result, map key) of
	// the call being judged.
	MaxStringBytes = 4 << 20
	// MaxHistoryStringBytes is how much of each string a Session keeps of
	// an earlier call. Aggregates (paths, fingerprints) are computed before
	// the cut.
	MaxHistoryStringBytes = 4 << 10
	// MaxDepth is how deeply lists and maps may nest.
	MaxDepth = 64
	// MaxNodes is how many values (scalars, list items, map entries) one
	// call's arguments may hold, and as many its result.
	MaxNodes = 100000
)

// pathKeys are the argument names a call's path is taken from, in order:
// the FileTools behavior's tools use path, Claude Code's file tools
// file_path (notebook_path for notebooks).
var pathKeys = [...]string{"path", "file_path", "notebook_path"}

// callPath returns the path a call works on: the first of args.path,
// args.file_path and args.notebook_path that is a non-empty string, cleaned
// lexically (path.Clean); "" when there is none.
func callPath(args map[string]any) string {
	for _, k := range pathKeys {
		if s, ok := args[k].(string); ok && s != "" {
			return path.Clean(s)
		}
	}
	return ""
}

// lookupField returns the argument a condition's field names: the key
// itself when present, otherwise the dotted path through nested maps (and
// lists, by decimal index). The field "path" is the call's path (callPath)
// when it has one.
func lookupField(args map[string]any, field string) (any, bool) {
	if field == "path" {
		if p := callPath(args); p != "" {
			return p, true
		}
	}
	if v, ok := args[field]; ok {
		return v, true
	}
	if strings.Contains(field, ".") {
		var cur any = args
		for part := range strings.SplitSeq(field, ".") {
			switch c := cur.(type) {
			case map[string]any:
				v, ok := c[part]
				if !ok {
					return nil, false
				}
				cur = v
			case []any:
				i, err := strconv.Atoi(part)
				if err != nil || i < 0 || i >= len(c) {
					return nil, false
				}
				cur = c[i]
			default:
				return nil, false
			}
		}
		return cur, true
	}
	return nil, false
}

// scalarString renders a scalar argument as the string a field condition
// compares: strings as they are, numbers in their shortest decimal form,
// booleans as true/false. Lists, maps and nil have no string form.
func scalarString(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case bool:
		return strconv.FormatBool(x), true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case int64:
		return strconv.FormatInt(x, 10), true
	case uint64:
		return strconv.FormatUint(x, 10), true
	}
	return "", false
}

// bounder copies a value into the engine's form (map[string]any, []any,
// string, float64, int64, uint64, bool, nil), cutting strings at maxStr
// bytes, nesting at MaxDepth and the number of values at MaxNodes. over
// says what it cut first; at names the argument it is copying, for that.
type bounder struct {
	maxStr int
	nodes  int
	over   string
	at     string
}

// cut records the first limit a value went past.
func (b *bounder) cut(format string, args ...any) {
	if b.over == "" {
		b.over = fmt.Sprintf(format, args...)
		if b.at != "" {
			b.over = fmt.Sprintf("argument %s: %s", b.at, b.over)
		}
	}
}

func cutString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// fits reports whether v is already in the engine's form and within the
// limits, so that it can be used without a copy. It counts the nodes it
// visits in b.nodes.
func (b *bounder) fits(v any, depth int) bool {
	b.nodes++
	if b.nodes > MaxNodes {
		return false
	}
	switch x := v.(type) {
	case nil, bool, float64, int64, uint64:
		return true
	case string:
		return len(x) <= b.maxStr
	case []any:
		if depth >= MaxDepth {
			return false
		}
		for _, e := range x {
			if !b.fits(e, depth+1) {
				return false
			}
		}
		return true
	case map[string]any:
		if depth >= MaxDepth {
			return false
		}
		for k, e := range x {
			if len(k) > b.maxStr || !b.fits(e, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// copy returns v in the engine's form within the limits. Values of other Go
// types go through encoding/json; what does not encode becomes nil.
func (b *bounder) copy(v any, depth int) any {
	b.nodes++
	switch x := v.(type) {
	case nil, bool, int64, uint64:
		return x
	case float64:
		return x
	case string:
		if len(x) > b.maxStr {
			b.cut("a string of %d bytes, more than the %d charter judges", len(x), b.maxStr)
		}
		return cutString(x, b.maxStr)
	case []any:
		if depth >= MaxDepth {
			b.cut("lists and maps nested more than %d deep", MaxDepth)
			return nil
		}
		out := make([]any, 0, min(len(x), MaxNodes))
		for _, e := range x {
			if b.nodes >= MaxNodes {
				b.cut("more than %d values", MaxNodes)
				break
			}
			out = append(out, b.copy(e, depth+1))
		}
		return out
	case map[string]any:
		if depth >= MaxDepth {
			b.cut("lists and maps nested more than %d deep", MaxDepth)
			return nil
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		out := make(map[string]any, min(len(x), MaxNodes))
		for _, k := range keys {
			if b.nodes >= MaxNodes {
				b.cut("more than %d values", MaxNodes)
				break
			}
			if len(k) > b.maxStr {
				b.cut("a key of %d bytes, more than the %d charter judges", len(k), b.maxStr)
			}
			if depth == 0 && b.over == "" {
				b.at = cutString(k, 64)
			}
			out[cutString(k, b.maxStr)] = b.copy(x[k], depth+1)
		}
		return out
	case float32:
		return float64(x)
	case int:
		return int64(x)
	case int8:
		return int64(x)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case uint:
		return uint64(x)
	case uint8:
		return uint64(x)
	case uint16:
		return uint64(x)
	case uint32:
		return uint64(x)
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		if f, err := x.Float64(); err == nil {
			return f
		}
		return string(x)
	}
	// Another Go type (a struct, a typed map or slice): take its JSON form.
	data, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var generic any
	if err := json.Unmarshal(data, &generic); err != nil {
		return nil
	}
	return b.copy(generic, depth)
}

// boundValue returns v within the limits, without a copy when it already is.
func boundValue(v any, maxStr int) any {
	out, _ := boundValueOver(v, maxStr)
	return out
}

// boundValueOver is boundValue that also says what went past a limit (""
// when nothing did).
func boundValueOver(v any, maxStr int) (any, string) {
	b := bounder{maxStr: maxStr}
	if b.fits(v, 0) {
		return v, ""
	}
	b = bounder{maxStr: maxStr}
	out := b.copy(v, 0)
	return out, b.over
}

// boundArgs returns args within the limits, without a copy when they already
// are.
func boundArgs(args map[string]any, maxStr int) map[string]any {
	m, _ := boundArgsOver(args, maxStr)
	return m
}

// boundArgsOver is boundArgs that also says what went past a limit.
func boundArgsOver(args map[string]any, maxStr int) (map[string]any, string) {
	if args == nil {
		return nil, ""
	}
	v, over := boundValueOver(args, maxStr)
	m, _ := v.(map[string]any)
	return m, over
}

// fingerprint returns a short hash of a call's tool and arguments: two calls
// with the same tool and equal arguments (maps compared by key, numbers by
// value) have the same fingerprint. The result is 16 hex digits (FNV-1a,
// 64 bits).
func fingerprint(tool string, args map[string]any) string {
	h := fnvHash(fnvOffset)
	h.str(tool)
	h.value(args)
	var sum [8]byte
	binary.BigEndian.PutUint64(sum[:], uint64(h))
	return hex.EncodeToString(sum[:])
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// fnvHash is FNV-1a (64 bits) over a canonical, typed encoding of a value.
type fnvHash uint64

func (h *fnvHash) byte(b byte) {
	*h ^= fnvHash(b)
	*h *= fnvPrime
}

func (h *fnvHash) u64(tag byte, u uint64) {
	h.byte(tag)
	for i := 56; i >= 0; i -= 8 {
		h.byte(byte(u >> i))
	}
}

func (h *fnvHash) str(s string) {
	h.u64('s', uint64(len(s)))
	for i := 0; i < len(s); i++ {
		h.byte(s[i])
	}
}

func (h *fnvHash) value(v any) {
	switch x := v.(type) {
	case nil:
		h.byte('n')
	case bool:
		if x {
			h.byte('t')
		} else {
			h.byte('f')
		}
	case string:
		h.str(x)
	case float64:
		// Integral numbers hash alike whatever their Go type.
		if x == math.Trunc(x) && math.Abs(x) < 1<<63 {
			h.u64('i', uint64(int64(x)))
		} else {
			h.u64('d', math.Float64bits(x))
		}
	case int64:
		h.u64('i', uint64(x))
	case uint64:
		h.u64('i', x)
	case []any:
		h.u64('l', uint64(len(x)))
		for _, e := range x {
			h.value(e)
		}
	case map[string]any:
		h.u64('m', uint64(len(x)))
		if len(x) == 1 {
			for k, e := range x {
				h.str(k)
				h.value(e)
			}
			return
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			h.str(k)
			h.value(x[k])
		}
	default:
		h.byte('?')
	}
}
