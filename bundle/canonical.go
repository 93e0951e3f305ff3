package bundle

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf16"

	"github.com/gowebpki/jcs"
)

// appendCanonical appends the RFC 8785 form of a generic JSON value (as
// encoding/json decodes into any, with UseNumber) to b. It is the same as
// jcs.Transform of the value's JSON, without parsing it again; the tests
// hold the two equal.
func appendCanonical(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case string:
		return appendString(b, x), nil
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return nil, fmt.Errorf("number %s: %v", x, err)
		}
		return appendNumber(b, f)
	case float64:
		return appendNumber(b, x)
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendCanonical(b, e); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, compareUTF16)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, k)
			b = append(b, ':')
			var err error
			if b, err = appendCanonical(b, x[k]); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	}
	return nil, fmt.Errorf("canonical JSON: unexpected %T", v)
}

func appendNumber(b []byte, f float64) ([]byte, error) {
	s, err := jcs.NumberToJSON(f)
	if err != nil {
		return nil, err
	}
	return append(b, s...), nil
}

// appendString escapes as ECMAScript's JSON.stringify does (RFC 8785 3.2.2.2).
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for _, r := range s {
		switch {
		case r == '"':
			b = append(b, '\\', '"')
		case r == '\\':
			b = append(b, '\\', '\\')
		case r == '\b':
			b = append(b, '\\', 'b')
		case r == '\f':
			b = append(b, '\\', 'f')
		case r == '\n':
			b = append(b, '\\', 'n')
		case r == '\r':
			b = append(b, '\\', 'r')
		case r == '\t':
			b = append(b, '\\', 't')
		case r < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[r>>4], hex[r&0xf])
		default:
			b = utf8Append(b, r)
		}
	}
	return append(b, '"')
}

func utf8Append(b []byte, r rune) []byte {
	var buf [4]byte
	n := copy(buf[:], string(r))
	return append(b, buf[:n]...)
}

// compareUTF16 orders strings by their UTF-16 code units (RFC 8785 3.2.3).
func compareUTF16(a, b string) int {
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	return slices.Compare(ua, ub)
}

// canonicalGeneric returns the RFC 8785 form of a generic value.
func canonicalGeneric(v any) ([]byte, error) {
	return appendCanonical(make([]byte, 0, 4096), v)
}
