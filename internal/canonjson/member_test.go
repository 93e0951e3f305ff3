package canonjson

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/gowebpki/jcs"
)

// decode reads JSON as generic values (objects as maps, numbers as
// json.Number).
func decode(b []byte) (any, error) {
	var g any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&g); err != nil {
		return nil, err
	}
	return g, nil
}

func TestRemoveMember(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a":1,"status":"x","z":[1,{"status":2}]}`, `{"a":1,"z":[1,{"status":2}]}`},
		{`{"status":"x","z":2}`, `{"z":2}`},
		{`{"a":{"b":","},"status":"x"}`, `{"a":{"b":","}}`},
		{`{"status":{"a":[1,2]}}`, `{}`},
		{`{"a":1}`, `{"a":1}`},
		{`{}`, `{}`},
	} {
		if got := string(RemoveMember([]byte(tc.in), "status")); got != tc.want {
			t.Errorf("RemoveMember(%s) = %s, want %s", tc.in, got, tc.want)
		}
		if _, err := jcs.Transform([]byte(tc.want)); err != nil {
			t.Errorf("%s: %v", tc.want, err)
		}
	}
}

// FuzzRemoveMember: on any canonical object, removeMember equals
// decoding, deleting the member and encoding again.
func FuzzRemoveMember(f *testing.F) {
	for _, s := range []string{`{"a":1,"status":"x"}`, `{"status":[1,"}",{"status":2}],"z":"\\""}`, `{}`, `[1]`, `{"st":1}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		canon, err := transform(nil, []byte(in))
		if err != nil {
			return
		}
		got := RemoveMember(canon, "status")
		g, err := decode(canon)
		if err != nil {
			t.Fatal(err)
		}
		if m, ok := g.(map[string]any); ok {
			delete(m, "status")
			g = m
		}
		want, err := Canonical(g)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("RemoveMember(%s) = %s, want %s", canon, got, want)
		}
	})
}
