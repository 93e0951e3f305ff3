package lint

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/literal"
	"cuelang.org/go/cue/token"

	"github.com/charter-dev/charter/internal/config/load"
	"github.com/charter-dev/charter/internal/output/diag"
	"github.com/charter-dev/charter/internal/output/secret"
)

var secretLiteral = &Rule{
	ID:       "secret-literal",
	Severity: diag.Error,
	Summary:  "a literal credential (API key, token, password, private key) in the configuration",
	Doc: doc(`Configuration is committed, reviewed, built into bundles and shown in diffs; a credential in it leaks to everyone who can read any of those. This rule reads every string literal of the user's files, and every resolved value (a credential built by concatenation, "ghp_" + "...", or interpolation, or reaching a field through a reference), and flags (1) a field whose name says it holds a credential (a name ending in api_key, token, secret, password, private_key, access_key, client_secret, credentials, ...; not token_pattern) holding a literal rather than a reference, and (2) anywhere, a value shaped like a known credential: OpenAI and Anthropic keys (sk-, sk-proj-, sk-ant-), GitHub tokens (ghp_, github_pat_, and gho_, ghu_, ghs_ as in GITHUB_TOKEN, ghr_), AWS access key ids (AKIA...) and secret access keys (40 characters of base64), Slack tokens (xoxb-, xoxp-, ...), Google API keys (AIza...), Stripe secret keys (sk_live_, rk_live_, sk_test_), JSON Web Tokens, passwords in URLs (https://user:password@host) and PEM private keys. A value that looks like a reference is not flagged: an environment variable name (OPENAI_API_KEY), ${VAR} or {var}, env:, vault:, op:// or secret: references. The value is never printed. Read it at run time from the environment or a secret store, and rotate the credential if it was ever committed: Git history keeps it.

charter build refuses a bundle that would carry a credential this rule finds, or one its files hold (a prompt that puts two values side by side), whatever lint.disable and lint.severity say: only an ignore comment with a reason at the value's line lets it through.`,
		`behaviors: [{type: "SearchBehavior", params: api_key: "sk-proj-Tq3J9...."}]`,
		`behaviors: [{type: "SearchBehavior", params: api_key: "env:SEARCH_API_KEY"}]`),
	Run: func(p *Pass) {
		named := map[string]bool{} // secret.NamedLike by label: labels repeat in every agent
		var flagged []string
		for _, f := range p.Files {
			// The loader collected the file's string literals as it
			// walked it; the labels around one are looked up only when
			// it is reported.
			for _, s := range f.Strings {
				like, ok := named[s.Label]
				if !ok {
					like = s.Label != "" && secret.NamedLike(s.Label)
					named[s.Label] = like
				}
				if v, ok := checkSecret(p, f, s.Label, like, s.Lit); ok {
					flagged = append(flagged, v)
				}
			}
		}
		checkResolved(p, flagged)
	},
}

// checkSecret reports a string literal that is, or is named like, a
// credential (package secret decides), and returns its value when it
// does. It never puts the value in the message.
func checkSecret(p *Pass, f *load.File, label string, namedLike bool, lit *ast.BasicLit) (string, bool) {
	if !mayHoldSecret(lit.Value, namedLike) {
		return "", false
	}
	s, err := literal.Unquote(lit.Value)
	if err != nil || len(s) < 6 {
		return "", false
	}
	if k, ok := secret.Detect(s); ok {
		p.reportSecret(lit.Pos(), labelsAround(f, lit), s, "a literal that looks like %s; never commit credentials: read it from the environment or a secret store at run time, and rotate it if it was ever committed (Git history keeps it)", k.What)
		return s, true
	}
	if _, ok := secret.IsLiteral(label, s); ok {
		p.reportSecret(lit.Pos(), labelsAround(f, lit), s, "field %s holds a literal credential; never commit credentials: reference it (e.g. \"env:NAME\") and read it at run time, and rotate it if it was ever committed (Git history keeps it)", label)
		return s, true
	}
	return "", false
}

// reportSecret reports a credential, keeping its value (never printed)
// for build's guard.
func (p *Pass) reportSecret(pos token.Pos, path []string, value, format string, args ...any) {
	*p.out = append(*p.out, finding{rule: p.Rule, path: path, pos: pos, msg: fmt.Sprintf(format, args...), value: value})
}

// checkResolved reports the credentials of the resolved configuration that
// no literal holds whole: a value built by concatenation ("ghp_" + "...")
// or interpolation ("\(prefix)..."), or a literal reaching a field named
// like a credential through a reference. What reaches the bundle is what
// is checked; flagged are the literals already reported.
func checkResolved(p *Pass, flagged []string) {
	covered := func(v string) bool {
		for _, f := range flagged {
			if strings.Contains(f, v) {
				return true
			}
		}
		return false
	}
	cfg := p.Config
	for _, kind := range []struct {
		name  string
		decls any
	}{
		{"categories", cfg.Categories}, {"agentTypes", cfg.AgentTypes}, {"presets", cfg.Presets},
		{"behaviorTypes", cfg.BehaviorTypes}, {"profiles", cfg.Profiles}, {"agents", cfg.Agents},
		{"tests", cfg.Tests}, {"models", cfg.Models}, {"runtimes", cfg.Runtimes}, {"flows", cfg.Flows},
	} {
		// In map order: the diagnostics are sorted at the end.
		for it := reflect.ValueOf(kind.decls).MapRange(); it.Next(); {
			name := it.Key().String()
			if cfg.Builtin[kind.name+"."+name] {
				continue
			}
			path := append(make([]string, 0, 32), kind.name, name)
			walkStrings(path, "", it.Value(), func(path []string, label, v string) {
				ms := secret.Find(v)
				for _, m := range ms {
					if !covered(v[m.Start:m.End]) {
						p.reportSecret(token.NoPos, slices.Clone(path), v, "the value looks like %s, built from parts that no literal holds whole; never commit credentials: read it from the environment or a secret store at run time, and rotate it if it was ever committed (Git history keeps it)", m.Shape.What)
						return
					}
				}
				if len(ms) == 0 && label != "" && secret.NamedLiteral(label, v) && !covered(v) {
					p.reportSecret(token.NoPos, slices.Clone(path), v, "field %s holds a literal credential; never commit credentials: reference it (e.g. \"env:NAME\") and read it at run time, and rotate it if it was ever committed (Git history keeps it)", label)
				}
			})
		}
	}
}

// walkStrings calls fn with the strings of the model value v that may
// hold a credential (secret.MayContain, or held by a field named like
// one), with their paths (field names as their JSON names, the CUE
// labels; list elements as [i]) and their fields' labels ("" for a list
// element). It reads the model as it is, by reflection: encoding it as
// JSON to walk it cost lint five times its time at 2,000 agents.
func walkStrings(path []string, label string, v reflect.Value, fn func(path []string, label, v string)) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walkStrings(path, label, v.Elem(), fn)
		}
	case reflect.String:
		x := v.String()
		if len(x) >= 6 && (secret.MayContain(x) || label != "" && secret.NamedLike(label)) {
			fn(path, label, x)
		}
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return
		}
		// One key and one value for the whole map: MapRange's Key and
		// Value allocate each time.
		key := reflect.New(v.Type().Key()).Elem()
		val := reflect.New(v.Type().Elem()).Elem()
		for it := v.MapRange(); it.Next(); {
			key.SetIterKey(it)
			val.SetIterValue(it)
			k := key.String()
			walkStrings(append(path, k), k, val, fn)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			walkStrings(append(path, indexLabel(i)), "", v.Index(i), fn)
		}
	case reflect.Struct:
		for _, f := range structFields(v.Type()) {
			walkStrings(append(path, f.name), f.name, v.Field(f.index), fn)
		}
	}
}

// field is a struct field walkStrings reads: its JSON name and index.
type field struct {
	name  string
	index int
}

// fieldCache holds structFields' answer by type (the model's types are
// few, their values many).
var fieldCache sync.Map // reflect.Type -> []field

// structFields returns the exported fields of struct type t that can hold
// a string, by their JSON names.
func structFields(t reflect.Type) []field {
	if fs, ok := fieldCache.Load(t); ok {
		return fs.([]field)
	}
	var fs []field
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" || !mayHoldString(f.Type) {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fs = append(fs, field{name, i})
	}
	fieldCache.Store(t, fs)
	return fs
}

// mayHoldString reports whether a value of type t can hold a string.
func mayHoldString(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return false
	}
	return true
}

// indexLabels are the labels of the first list indices, made once.
var indexLabels = func() (out [64]string) {
	for i := range out {
		out[i] = index(i)
	}
	return
}()

func indexLabel(i int) string {
	if i < len(indexLabels) {
		return indexLabels[i]
	}
	return index(i)
}

// mayHoldSecret is a quick test on a literal's source text: false means
// checkSecret would report nothing (namedLike: its field is named like a
// credential). Most literals of a repository are
// prose and names; this spares unquoting them. Escapes could spell a
// prefix, so a literal with a backslash is always checked.
func mayHoldSecret(raw string, namedLike bool) bool {
	return namedLike || strings.Contains(raw, `\`) || secret.MayContain(raw)
}

// labelsAround returns the labels of the fields around lit in f.
func labelsAround(f *load.File, lit *ast.BasicLit) []string {
	var here []string
	w := literalWalk{indices: true, fn: func(path []string, _ string, l *ast.BasicLit) {
		if l == lit && here == nil {
			here = append([]string{}, path...)
		}
	}}
	for _, d := range f.Syntax.Decls {
		w.node(d)
	}
	return here
}
