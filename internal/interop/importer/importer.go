// Package importer turns the configuration files of the systems charter
// was made from into charter declarations, written as CUE: EchoForge's
// behavior_config JSON, Jetbox's behaviors YAML, the behavior engine's app
// YAML, SynthOrg's agent identity YAML, and charter's own agent.json.
//
// The contract: every key of the source lands in a CUE field, or is named,
// with its line, in Result.NotCarried (or Unset, for nulls; or Derived,
// for what charter computes from other declarations). Values are written
// as the source has them, right or wrong; validating the result says what
// charter rejects, at the line of the file written. Each format's file
// holds its table of which source key goes to which field (see mapping).
package importer

import (
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Format is a source format import reads.
type Format struct {
	// Name is what --from takes.
	Name string
	// Title names the format in messages.
	Title string
	// Expect says what a file of the format looks like.
	Expect string
	// detect says why root is of this format, or "" when it is not.
	detect func(root *Node) string
	// table is the format's mapping, for the reference (convert uses it).
	table []mapping
	// convert makes the declarations.
	convert func(c *conv, root *Node)
}

// Formats are the formats import reads, in the order detection tries them.
var Formats = []*Format{charterFormat, synthorgFormat, behaviorEngineFormat, jetboxFormat, echoforgeFormat}

// FormatNames returns the names --from takes.
func FormatNames() []string {
	var names []string
	for _, f := range Formats {
		names = append(names, f.Name)
	}
	return names
}

// FormatNamed returns the format of that name, or nil.
func FormatNamed(name string) *Format {
	for _, f := range Formats {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Decl is one declaration the import writes: kind.id, one file each.
type Decl struct {
	// Kind is the top-level field: agents, agentTypes, profiles, presets.
	Kind string
	// ID is the slug the declaration is written under; From is what the
	// source calls it.
	ID, From string
	// Why says how the id was chosen, when not simply from From.
	Why  string
	Body *Node
	// Comment heads the declaration in the file.
	Comment string
	// Implicit declarations are made because charter needs them and the
	// source has none (an agent type for an identity); an existing one of
	// the same id is used instead of writing it.
	Implicit bool
	// Exists is set for an implicit declaration the config root has.
	Exists bool
	// File is where it is written, slash-separated, relative to the config
	// root.
	File string
}

// Noun names the kind of declaration in messages.
func (d *Decl) Noun() string {
	switch d.Kind {
	case "agents":
		return "agent"
	case "agentTypes":
		return "agent type"
	case "profiles":
		return "profile"
	case "presets":
		return "preset"
	case "roles":
		return "role"
	}
	return d.Kind
}

// conv is the state of one conversion: the declarations made so far and
// what the config root already declares.
type conv struct {
	res  *Result
	stem string // the source file's name without folder and extension
	name string // the source file's name without folder, for what is written
	// existing reports whether the config root declares kind.id, and
	// whether charter's standard library does.
	existing func(kind, id string) (declared, builtin bool)
	// authorityName reports whether the config root already gives the
	// authority fields a name: an agent, a role, an approval setting, a
	// tool, a tool family or a rule.
	authorityName func(name string) bool
	w             *walker
}

// declare adds a declaration of kind named from in the source, under the
// slug of want (of from when want is empty). A slug the standard library
// takes gets a suffix: the standard library is extended, never changed.
func (c *conv) declare(kind, from, want string, implicit bool) *Decl {
	if want == "" {
		want = from
	}
	d := &Decl{Kind: kind, From: from, ID: Slug(want), Body: &Node{Kind: Map}, Implicit: implicit}
	if d.ID != want && want != from {
		d.Why = fmt.Sprintf("from %q", want)
	}
	declared, builtin := c.existing(kind, d.ID)
	switch {
	case implicit && declared:
		d.Exists = true
	case builtin:
		base := d.ID
		sep := "-"
		if strings.Contains(base, "_") {
			sep = "_"
		}
		d.ID = base + sep + "imported"
		for i := 2; ; i++ {
			if dd, bb := c.existing(kind, d.ID); !dd && !bb {
				break
			}
			d.ID = fmt.Sprintf("%s%simported%d", base, sep, i)
		}
		d.Why = fmt.Sprintf("%s is built into charter's standard library, which is extended, never changed", base)
	}
	for _, o := range c.res.Decls {
		if o.Kind == kind && o.ID == d.ID {
			d.ID = fmt.Sprintf("%s-%d", d.ID, len(c.res.Decls)+1)
		}
	}
	c.res.Decls = append(c.res.Decls, d)
	return d
}

var slugBad = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-z0-9_-]+`) })

// Slug makes an id of a name: lower case ASCII letters, digits, "_" and
// "-" (accents dropped, every other run of characters one "-"), starting
// with a letter or digit. An empty result is "imported".
func Slug(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	out := slugBad().ReplaceAllString(b.String(), "-")
	out = strings.TrimLeft(out, "-_")
	out = strings.TrimRight(out, "-")
	if out == "" {
		return "imported"
	}
	return out
}

// title makes a display name of a file stem: task_executor -> Task Executor.
func title(stem string) string {
	words := strings.FieldsFunc(stem, func(r rune) bool { return r == '_' || r == '-' || r == ' ' || r == '.' })
	for i, w := range words {
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		words[i] = string(r)
	}
	if len(words) == 0 {
		return stem
	}
	return strings.Join(words, " ")
}

// stemOf is a path's file name without its extension.
func stemOf(p string) string {
	base := path.Base(strings.ReplaceAll(p, "\\", "/"))
	return strings.TrimSuffix(base, path.Ext(base))
}
