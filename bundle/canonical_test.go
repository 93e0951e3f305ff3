package bundle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
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
