package canonjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gowebpki/jcs"
)

// FuzzCanonical holds appendCanonical equal to jcs.Transform on any JSON.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{
		`{"b":1,"a":[true,null,"x"],"\u00e9":2,"\ud83d\ude00":3,"\ufb33":4}`,
		`{"n":[0,-0,1e21,1e-7,0.1,123456789012345680000,5e-324,1.7976931348623157e308]}`,
		`"tab\tnl\ncr\r\u0001\u001f\"\\ \u2028 <>&"`,
		`[[],{},"",0.30000000000000004]`,
		`{"\ue000":1,"\ud800\udc00":2,"a\uffff":3,"a\ud83d\ude00":4,"\u00ff":5}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if dec.Decode(&v) != nil || dec.More() {
			return
		}
		want, err := jcs.Transform(data)
		if err != nil {
			return // jcs rejects it (a number out of range, say)
		}
		got, err := canonicalGeneric(v)
		if err != nil {
			t.Fatalf("canonicalGeneric(%s) failed where jcs did not: %v", data, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("canonical(%s)\n got %s\nwant %s", data, got, want)
		}
	})
}

// FuzzAppendString holds the fast string escaper equal to the plain one
// (escape or copy each rune), on any bytes, invalid UTF-8 included.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "tab\tnl\n\x01\x7f\"\\", "\u2028é😀", "bad \xff\xfe end", "\xe2\x82"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := appendString(nil, s), plainAppendString(s); !bytes.Equal(got, want) {
			t.Errorf("appendString(%q) = %s, want %s", s, got, want)
		}
	})
}

func plainAppendString(s string) []byte {
	b := []byte{'"'}
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\b':
			b = append(b, `\b`...)
		case r == '\f':
			b = append(b, `\f`...)
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r < 0x20:
			b = fmt.Appendf(b, `\u%04x`, r)
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"')
}

// FuzzCompareUTF16 holds the fast key order equal to comparing UTF-16
// code units.
func FuzzCompareUTF16(f *testing.F) {
	f.Add("a", "b")
	f.Add("\ue000", "\U0001F600")
	f.Add("x\uffff", "x\U00010000")
	f.Add("\xff", "\u00e9")
	f.Fuzz(func(t *testing.T, a, b string) {
		want := slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
		if got := compareUTF16(a, b); got != want {
			t.Errorf("compareUTF16(%q, %q) = %d, want %d", a, b, got, want)
		}
	})
}

// FuzzTransform holds transform equal to decoding (encoding/json, with
// UseNumber) and encoding with canonicalGeneric, on any bytes: the same
// output, and an error exactly when that fails.
func FuzzTransform(f *testing.F) {
	for _, s := range []string{
		`{"b":1,"a":[true,null,"x"],"\u00e9":2,"\ud83d\ude00":3,"\ufb33":4}`,
		`{"n":[0,-0,1e21,1e-7,0.1,123456789012345680000,5e-324,1.7976931348623157e308]}`,
		`"tab\tnl\ncr\r\u0001\u001f\"\\ \u2028 <>&\/"`,
		`[[],{},"",0.30000000000000004, {"a":1,"a":2}]`,
		`"\ud800 lone \udc00 \ud800\u0041 \ud83d\ude00"`,
		"\"bad \xff utf8\"",
		` { "x" : [ 1 , 2 ] } `,
		`1e400`, `01`, `-`, `{"a"}`, `[1,]`, `"\u12"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		want, werr := []byte(nil), dec.Decode(&v)
		if werr == nil {
			if _, err := dec.Token(); err != io.EOF {
				werr = errors.New("text after the value")
			}
		}
		if werr == nil {
			want, werr = canonicalGeneric(v)
		}
		got, err := transform(nil, data)
		if (err != nil) != (werr != nil) {
			t.Fatalf("transform(%q): error %v, but decode and canonicalGeneric: %v", data, err, werr)
		}
		if err == nil && !bytes.Equal(got, want) {
			t.Errorf("transform(%q)\n got %s\nwant %s", data, got, want)
		}
	})
}

// FuzzIndent holds indent equal to json.Indent on transform's output.
func FuzzIndent(f *testing.F) {
	for _, s := range []string{`{"a":[1,{},[],{"b":"x\"]}"}],"c":null}`, `[]`, `"s"`, `[[[]],{"":{"":[0]}}]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		compact, err := transform(nil, data)
		if err != nil {
			return
		}
		var want bytes.Buffer
		if err := json.Indent(&want, compact, "", "  "); err != nil {
			t.Fatalf("json.Indent(%s): %v", compact, err)
		}
		want.WriteByte('\n')
		if got := indent(compact); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("indent(%s)\n got %s\nwant %s", compact, got, want.Bytes())
		}
	})
}

// appendCanonical appends the RFC 8785 form of a generic JSON value (as
// encoding/json decodes into any, with UseNumber) to b: the oracle that
// FuzzCanonical holds equal to jcs, and FuzzTransform holds transform
// equal to.
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

// canonicalGeneric returns the RFC 8785 form of a generic value.
func canonicalGeneric(v any) ([]byte, error) {
	return appendCanonical(make([]byte, 0, 4096), v)
}

// FuzzInsertMember holds insertMember equal to adding the member to the
// decoded object and encoding it again.
func FuzzInsertMember(f *testing.F) {
	f.Add([]byte(`{"a":1,"z":{"y":[1,","]}}`), "content_hash")
	f.Add([]byte(`{}`), "k")
	f.Add([]byte(`{"b":"}","\u00e9":2}`), "c")
	f.Add([]byte(`{"a":1}`), "0")
	f.Fuzz(func(t *testing.T, data []byte, key string) {
		obj, err := transform(nil, data)
		if err != nil || obj[0] != '{' {
			return
		}
		g, err := decode(obj)
		if err != nil {
			t.Fatal(err)
		}
		m := g.(map[string]any)
		key = validString([]byte(key))
		if _, ok := m[key]; ok {
			return
		}
		m[key] = "v"
		want, err := canonicalGeneric(m)
		if err != nil {
			t.Fatal(err)
		}
		if got := insertMember(obj, key, appendString(nil, "v")); !bytes.Equal(got, want) {
			t.Errorf("insertMember(%s, %q)\n got %s\nwant %s", obj, key, got, want)
		}
	})
}

// TestTransformDepth holds transform to encoding/json's nesting limit.
func TestTransformDepth(t *testing.T) {
	for _, n := range []int{maxDepth, maxDepth + 1} {
		data := []byte(strings.Repeat("[", n) + strings.Repeat("]", n))
		var v any
		jerr := json.Unmarshal(data, &v)
		_, err := transform(nil, data)
		if (jerr != nil) != (err != nil) {
			t.Errorf("%d nested arrays: encoding/json error %v, transform error %v", n, jerr, err)
		}
	}
}
