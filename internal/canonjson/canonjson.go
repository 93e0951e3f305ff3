// Package canonjson writes JSON in its RFC 8785 canonical form (keys in
// UTF-16 order, numbers and strings as ECMAScript writes them), and the
// indented form of it that the bundle's files use. The content hash,
// card.json and the card signatures (cardsign) take the canonical form
// to the letter.
//
// It imports nothing of charter's, so that a program that reads a bundle
// (the Claude Code hook) links it without the compiler.
package canonjson

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Canonical encodes v as RFC 8785 canonical JSON.
func Canonical(v any) ([]byte, error) {
	b, err := Marshal(v)
	if err != nil {
		return nil, err
	}
	return transform(nil, b)
}

// Pretty encodes v in its RFC 8785 form, indented by two spaces, ending in
// a newline: keys sorted, numbers and strings written as RFC 8785 writes
// them. Only the content hash and card.json need the canonical form to the
// letter (see Canonical); the other files are indented for people.
func Pretty(v any) ([]byte, error) {
	c, err := Canonical(v)
	if err != nil {
		return nil, err
	}
	return indent(c), nil
}

// Transform appends the canonical form of the JSON text src to dst: for
// what encoding/json has already written, without building values.
func Transform(dst, src []byte) ([]byte, error) { return transform(dst, src) }

// Indent indents canonical JSON (Transform's output) by two spaces, as
// Pretty does, and ends it in a newline.
func Indent(canonical []byte) []byte { return indent(canonical) }

// InsertMember returns the canonical object obj with the member key:
// value (value in canonical form) added at its place in RFC 8785 order.
// obj must not have key already.
func InsertMember(obj []byte, key string, value []byte) []byte {
	return insertMember(obj, key, value)
}

// AppendString appends s as a canonical JSON string to b.
func AppendString(b []byte, s string) []byte { return appendString(b, s) }

// Marshal encodes v as encoding/json does, compact, without escaping
// HTML: in the order of its type's fields, not canonical.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encoding JSON: %v", err)
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// RemoveMember returns the canonical object obj without its top-level
// member key (obj itself when it has none).
func RemoveMember(obj []byte, key string) []byte {
	if len(obj) < 2 || obj[0] != '{' {
		return obj
	}
	for i := 1; i < len(obj)-1; {
		t := &transformer{src: obj, pos: i}
		k, err := t.str()
		if err != nil {
			return obj
		}
		end := memberEnd(obj, t.pos+1) // the comma or closing brace after the value
		if end >= len(obj) {
			return obj // not canonical
		}
		if k == key {
			out := make([]byte, 0, len(obj))
			switch {
			case obj[end] == ',': // not the last: drop "key":value,
				out = append(append(out, obj[:i]...), obj[end+1:]...)
			case i > 1: // the last of several: drop ,"key":value
				out = append(append(out, obj[:i-1]...), obj[end:]...)
			default: // the only member
				out = append(out, '{', '}')
			}
			return out
		}
		if obj[end] != ',' {
			return obj
		}
		i = end + 1
	}
	return obj
}
