package bundle

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/charter-dev/charter/internal/artifact/bundlefile"
	"github.com/charter-dev/charter/internal/config/fieldpath"
	"github.com/charter-dev/charter/internal/output/secret"
)

// Leak is a credential-looking value in a file of a bundle.
type Leak struct {
	// File is the file's path in the bundle.
	File string
	// Field is the value's path in a JSON file (agents[0].description),
	// "" in a text file.
	Field string
	// What names what the value looks like ("a GitHub personal access
	// token", "a credential" for a field named like one).
	What string
}

// String says where the leak is and what it looks like, never the value.
func (l Leak) String() string {
	s := l.File
	if l.Field != "" {
		s += ": " + l.Field
	}
	return s + ": a value that looks like " + l.What
}

// Credentials returns the credential-looking values the files of t hold,
// as secret's one detector finds them, but those excused covers (the
// values an ignore comment with a reason says are no credentials): what
// reaches the bundle is what is judged, whatever made it (a literal, a
// concatenation, an interpolation, a template). Credential shapes are
// looked for in every file's bytes (a JSON string escapes nothing a shape
// is made of); a JSON file that holds one is read decoded to name the
// field, and there a field named like a credential (api_key) holding no
// reference counts too. A credential only its field's name gives away is
// judged in the resolved configuration (lint's secret-literal), which
// build checks first. At 2,000 agents (45 MB) this costs about 0.25 s.
func Credentials(t bundlefile.Tree, excused []string) []Leak {
	leaks, _ := Scan(t, excused)
	return leaks
}

// Scan is Credentials, with the files that hold a credential's shape,
// excused or not (HoldsShape): the only ones whose judgement another set
// of excused values can change.
func Scan(t bundlefile.Tree, excused []string) (leaks []Leak, shaped []string) {
	isExcused := func(v string) bool {
		for _, e := range excused {
			if strings.Contains(e, v) {
				return true
			}
		}
		return false
	}
	for _, name := range t.Paths() {
		b := t[name]
		// Most files hold no shape: one pass over the bytes says so (a
		// JSON string escapes nothing a shape is made of). A credential
		// only its field's name gives away is judged in the resolved
		// configuration (lint's secret-literal), which build checks first.
		if !HoldsShape(b) {
			continue
		}
		shaped = append(shaped, name)
		if strings.HasSuffix(name, ".json") {
			var v any
			dec := json.NewDecoder(bytes.NewReader(b))
			dec.UseNumber()
			if dec.Decode(&v) == nil {
				walkJSON(nil, "", v, func(path fieldpath.Path, label, s string) {
					for _, m := range secret.Find(s) {
						if !isExcused(s[m.Start:m.End]) {
							leaks = append(leaks, Leak{File: name, Field: path.String(), What: m.Shape.What})
							return
						}
					}
					if secret.NamedLiteral(label, s) && !isExcused(s) && len(secret.Find(s)) == 0 {
						leaks = append(leaks, Leak{File: name, Field: path.String(), What: "a credential (its field's name says so)"})
					}
				})
				continue
			}
		}
		s := string(b)
		for _, m := range secret.Find(s) {
			if !isExcused(s[m.Start:m.End]) {
				leaks = append(leaks, Leak{File: name, What: m.Shape.What})
			}
		}
	}
	return leaks, shaped
}

// walkJSON calls fn with every string of v, its path and its field's
// label ("" for a list element).
func walkJSON(path fieldpath.Path, label string, v any, fn func(path fieldpath.Path, label, s string)) {
	switch x := v.(type) {
	case string:
		if secret.MayContain(x) || label != "" && secret.NamedLike(label) {
			fn(path, label, x)
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			walkJSON(append(path[:len(path):len(path)], k), k, x[k], fn)
		}
	case []any:
		for i, e := range x {
			walkJSON(append(path[:len(path):len(path)], fieldpath.Index(i)), "", e, fn)
		}
	}
}

// HoldsShape reports whether b holds a credential's shape, excused or
// not: only such a file can hold what Credentials reports, whatever it
// excuses.
func HoldsShape(b []byte) bool {
	return secret.MayContain(string(b)) && len(secret.Find(string(b))) > 0
}
