package importer

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzImport: no input makes the parsers, detection or any format's
// conversion panic, and whatever a conversion makes is CUE that parses and
// is formatted.
func FuzzImport(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "seeds", "*.*"))
	for _, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{
		`{"a": 1, "a": 2}`, "a: &x [*x]\n", "a: &x {b: 1}\nc: {<<: *x, d: 2}\n", "{", "- a\n- b\n",
		"agent:\n  name: \"\\u0000#\"\n  personality: {description: \"a\\nb\\n\"}\n",
		"agent:\n  name: A\n  description: \"x\\r\\n\\t\\\"\\\"\\\"\\n\\\\(y)\\n  \"\n",
		"security: {behavior: {profile: p, rules: {x: false}, custom: [{id: \"_q\"}, 3, {rule: r}]}}\n",
		`{"id": "#a", "type": "t", "content_hash": "", "profile": {"name": 1, "rules": []}}`,
		"behaviors: [{type: T, params: {\"#def\": .inf}}]\n", "a: !Ref x\n", "---\na: 1\n---\nb: 2\n",
		`{"scheduling": {"x": 1e400}}`, "a: 1e100100\n", "security: {behavior: {rules: 0, custom: [{id: a}]}}\n", "x: 123456789012345678901234567890\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		n, _, err := Parse(src, "x")
		if err != nil {
			return
		}
		Detect(n)
		for _, format := range Formats {
			res := convert(t, format, src)
			for _, d := range res.Decls {
				d.File = d.Kind + "/" + d.ID + ".cue"
				b, err := d.source("charter")
				if err != nil {
					t.Fatalf("%s: %v", format.Name, err)
				}
				checkWritten(t, d, b)
			}
		}
	})
}
