package cuefmt_test

import (
	"encoding/json"
	"testing"

	"cuelang.org/go/cue/cuecontext"
	"github.com/google/go-cmp/cmp"

	"github.com/charter-dev/charter/internal/editor/cuefmt"
)

// TestEncodeRoundTrip reads Encode's output back with CUE and wants the
// same JSON.
func TestEncodeRoundTrip(t *testing.T) {
	in := map[string]any{"agents": map[string]any{"my-agent": map[string]any{
		"name": "Ann \"A\"\nsecond line", "temperature": 0.5, "n": 3, "tools": []any{"Read", "Bash"}, "on": true, "none": nil,
	}}}
	b, err := cuefmt.Encode(in)
	if err != nil {
		t.Fatal(err)
	}
	v := cuecontext.New().CompileBytes(b)
	got, err := v.MarshalJSON()
	if err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	want, _ := json.Marshal(in)
	var g, w any
	_ = json.Unmarshal(got, &g)
	_ = json.Unmarshal(want, &w)
	if d := cmp.Diff(w, g); d != "" {
		t.Errorf("round trip (-want +got):\n%s\n%s", d, b)
	}
}
