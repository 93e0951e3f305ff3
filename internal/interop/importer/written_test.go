package importer

import (
	"encoding/json"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	"github.com/google/go-cmp/cmp"
)

// plain is a node as plain JSON values.
func plain(n *Node) any {
	switch n.Kind {
	case Map:
		m := map[string]any{}
		for _, f := range n.Fields {
			m[f.Key] = plain(f.Value)
		}
		return m
	case List:
		l := []any{}
		for _, it := range n.Items {
			l = append(l, plain(it))
		}
		return l
	case String:
		return n.Text
	case Number:
		var f float64
		if err := json.Unmarshal([]byte(n.Text), &f); err != nil {
			return n.Text
		}
		return f
	case Bool:
		return n.Text == "true"
	}
	return nil
}

// checkWritten reads the CUE written for d back with CUE and compares it
// with what the import meant to write: the program that reads the output
// is the judge of it.
func checkWritten(t testing.TB, d *Decl, src []byte) {
	t.Helper()
	if hasDuplicates(d.Body) {
		// A key written twice (a source value where the import adds a
		// map) is meant for validation to report as a conflict.
		return
	}
	v := cuecontext.New().CompileBytes(src, cue.Filename(d.File))
	if v.Err() != nil {
		t.Fatalf("%s does not compile: %v\n%s", d.File, v.Err(), src)
	}
	b, err := v.LookupPath(cue.MakePath(cue.Str(d.Kind), cue.Str(d.ID))).MarshalJSON()
	if err != nil {
		return // a value JSON cannot hold (a number too large): nothing to compare
	}
	var got any
	if err := json.Unmarshal(b, &got); err != nil {
		return
	}
	if diff := cmp.Diff(plain(d.Body), got); diff != "" {
		t.Fatalf("%s reads back differently (-meant +read):\n%s\n%s", d.File, diff, src)
	}
}

func hasDuplicates(n *Node) bool {
	seen := map[string]bool{}
	for _, f := range n.Fields {
		if seen[f.Key] || hasDuplicates(f.Value) {
			return true
		}
		seen[f.Key] = true
	}
	for _, it := range n.Items {
		if hasDuplicates(it) {
			return true
		}
	}
	return false
}
