package cuefmt

import (
	"bytes"
	"testing"
)

// TestSourceIdempotent: what Source writes, Source leaves as it is, so
// that charter fmt --check passes right after charter fmt. Simplifying
// {type: "string"} to type: "string" changed the alignment the next run
// gave the fields around it.
func TestSourceIdempotent(t *testing.T) {
	for _, src := range []string{
		"package charter\n\nx: {\n\tproperties: {\n\t\ttest: {type: \"string\"}\n\t\terror_type: {type: \"string\"}\n\t\tline: {type: \"integer\"}\n\t}\n}\n",
		"package charter\n\nagents: marco: {\n\tmemory: {type: \"session\"}\n\tname: \"Marco\"\n}\n",
	} {
		once, ds := Source("a.cue", []byte(src))
		if ds != nil {
			t.Fatal(ds)
		}
		twice, ds := Source("a.cue", once)
		if ds != nil {
			t.Fatal(ds)
		}
		if !bytes.Equal(once, twice) {
			t.Errorf("Source is not idempotent:\nonce:\n%s\ntwice:\n%s", once, twice)
		}
	}
}

func FuzzSourceIdempotent(f *testing.F) {
	f.Add("package x\na: {b: {c: 1}}\nlong_name: {d: 2}\n")
	f.Add("package x\n// c\na: [1, {b: 2}]\n")
	f.Fuzz(func(t *testing.T, src string) {
		once, ds := Source("a.cue", []byte(src))
		if ds != nil {
			return
		}
		twice, ds := Source("a.cue", once)
		if ds != nil {
			t.Fatalf("Source's own output does not parse: %v\n%s", ds, once)
		}
		if !bytes.Equal(once, twice) {
			t.Fatalf("Source is not idempotent on %q:\nonce:\n%s\ntwice:\n%s", src, once, twice)
		}
	})
}
