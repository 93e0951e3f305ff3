package bundle

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/gowebpki/jcs"
)

// FuzzCanonical holds appendCanonical equal to jcs.Transform on any JSON.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{
		`{"b":1,"a":[true,null,"x"],"\u00e9":2,"\ud83d\ude00":3,"\ufb33":4}`,
		`{"n":[0,-0,1e21,1e-7,0.1,123456789012345680000,5e-324,1.7976931348623157e308]}`,
		`"tab\tnl\ncr\r\u0001\u001f\"\\ \u2028 <>&"`,
		`[[],{},"",0.30000000000000004]`,
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
